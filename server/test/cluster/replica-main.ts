/** One replica for the multi-process tests: the real server, configured by its environment. */
import { serve } from '../../src/main';

await serve();
