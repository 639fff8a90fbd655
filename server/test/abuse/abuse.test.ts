/**
 * The abuse tests of #20 and #32, one after another in one worker, and (vitest.config.ts's
 * `floods` project) after every other test file: each loads the machine (a flood, 20,000
 * connections, slow uploads, a server under full load) and measures latency or loss against
 * the same server idle, so nothing else may run beside them. The whole-board stream, which
 * measures neither, is in wholeBoard.test.ts; the holds that need no real sockets in holds.test.ts.
 */
import { enginesAvailable } from '../shared/engines';
import { addressCapSuite } from './addressCap';
import { idleFloodSuite } from './idleFlood';
import { killUsageSuite } from './killUsage';
import { signupFloodSuite } from './signupFlood';
import { slowBodiesSuite } from './slowBodies';

const engines = await enginesAvailable({ postgres: true, redis: true });

signupFloodSuite();
idleFloodSuite();
slowBodiesSuite();
addressCapSuite();
killUsageSuite(engines);
