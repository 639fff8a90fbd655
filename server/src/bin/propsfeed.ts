#!/usr/bin/env node
/**
 * The server package's `propsfeed` binary: the whole `props` CLI, bundled with the server it
 * serves, so `npm i -g @propsfeed/server && propsfeed serve` runs the service without a clone.
 */
import { runOnProcess } from '../../../cli/src/process';

await runOnProcess('propsfeed');
