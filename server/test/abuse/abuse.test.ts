/**
 * The abuse tests of #20 and #32, one after another in one worker: each loads the machine (a
 * flood, 20,000 connections, slow uploads, a whole-board stream, a server under full load) and
 * the sign-up flood measures latency, so they must not overlap one another. The holds that need
 * no real sockets are in holds.test.ts.
 */
import { enginesAvailable } from '../shared/engines';
import { addressCapSuite } from './addressCap';
import { idleFloodSuite } from './idleFlood';
import { killUsageSuite } from './killUsage';
import { signupFloodSuite } from './signupFlood';
import { slowBodiesSuite } from './slowBodies';
import { wholeBoardSuite } from './wholeBoard';

const engines = await enginesAvailable({ postgres: true, redis: true });

signupFloodSuite();
idleFloodSuite();
slowBodiesSuite();
addressCapSuite();
wholeBoardSuite();
killUsageSuite(engines);
