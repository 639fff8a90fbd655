/**
 * `serve()` for the webhook restart test: its webhook clock runs WEBHOOK_CLOCK_SPEED times
 * faster than the real one from WEBHOOK_CLOCK_ORIGIN, so a restarted process agrees with the
 * one it replaces on when each retry is due.
 */
import { serve } from '../../src/main';
import { spedClock } from '../../src/webhooks/clock';

await serve({
  port: 0,
  cli: 'propsfeed',
  webhookClock: spedClock(Number(process.env.WEBHOOK_CLOCK_SPEED), Number(process.env.WEBHOOK_CLOCK_ORIGIN)),
});
