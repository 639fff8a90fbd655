#!/usr/bin/env node
/**
 * `propsfeed` in a clone of the repository: the TypeScript source through tsx. The published
 * package's bin is the bundle, dist/propsfeed.js (publishConfig).
 */
import { register } from 'tsx/esm/api';

register();
await import('../src/bin/propsfeed.ts');
