/**
 * The abuse tests of #20, one after another in one worker: each loads the machine (a flood,
 * 20,000 connections, a server under full load) and the sign-up flood measures latency, so
 * they must not overlap one another.
 */
import { enginesAvailable } from '../shared/engines';
import { idleFloodSuite } from './idleFlood';
import { killUsageSuite } from './killUsage';
import { signupFloodSuite } from './signupFlood';

const engines = await enginesAvailable({ postgres: true, redis: true });

signupFloodSuite();
idleFloodSuite();
killUsageSuite(engines);
