/**
 * Optional diagnostics for the benchmark's processes (BENCH_LAG_LOG=1): logs every event-loop stall longer than
 * 25 ms with the heap size, so a latency outlier can be told apart as GC or work.
 */
import { heapStats } from "bun:jsc";

export function startLagLog(label: string, thresholdMs = 25) {
  if (process.env.BENCH_LAG_LOG !== "1") return;
  let last = performance.now();
  setInterval(() => {
    const t = performance.now();
    const lag = t - last - 5;
    last = t;
    if (lag > thresholdMs) {
      const heap = heapStats();
      console.log(
        `[lag ${label}] ${Math.round(lag)} ms at ${Date.now() % 1_000_000} heap ${Math.round(heap.heapSize / 1e6)} MB objects ${heap.objectCount}`,
      );
    }
  }, 5).unref();
}
