/**
 * Preloaded into a benchmarked server (`node --import ./bench/loopDelay.ts …`): every
 * 10 s it writes to stderr one line `loop-delay max=<ms> p99=<ms> mean=<ms>`, the main
 * thread's event loop delay over those 10 s (perf_hooks), then starts over. The max is the
 * longest the loop was held (to within the 2 ms resolution).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 2 });
histogram.enable();
const ms = (ns: number) => (ns / 1e6).toFixed(1);
setInterval(() => {
  process.stderr.write(
    `loop-delay max=${ms(histogram.max)} p99=${ms(histogram.percentile(99))} mean=${ms(histogram.mean)}\n`,
  );
  histogram.reset();
}, 10_000).unref();
