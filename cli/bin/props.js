#!/usr/bin/env node
// Runs the CLI from source through tsx in the workspace; a published build replaces this.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
