/**
 * One replica for the multi-process tests: the real server, configured by its environment;
 * REPLICA_CLOCK_OFFSET_MS moves its clock (see replicas.ts).
 */
import { serve } from '../../src/main';

const offset = Number(process.env.REPLICA_CLOCK_OFFSET_MS ?? 0);
await serve(offset === 0 ? {} : { now: () => Date.now() + offset });
