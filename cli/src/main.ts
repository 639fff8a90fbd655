#!/usr/bin/env node
/** The `props` binary: runs the CLI on this process's streams and environment. */
import { runOnProcess } from './process';

await runOnProcess('props');
