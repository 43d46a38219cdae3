/**
 * Optional diagnostics for the benchmark's processes (BENCH_LAG_LOG=1): logs every event-loop stall longer than
 * 25 ms with the heap size, so a latency outlier can be told apart as GC or work.
 */

import { heapSize, heapStats } from "bun:jsc";
import { writeFileSync } from "node:fs";

/**
 * SIGUSR2 makes the process run a full garbage collection, so the generator can read the RSS of live data as well
 * as the RSS it finds (which includes garbage not yet collected). Benchmark processes only.
 */
export function collectOnSignal() {
  const heapFile = process.env.BENCH_HEAP_FILE;
  process.on("SIGUSR2", () => {
    Bun.gc(true);
    // BENCH_HEAP_FILE: also write the live objects by type, for bench/memory-probe.ts.
    if (!heapFile) return;
    // BENCH_HEAP_SNAPSHOT=1: a V8-format snapshot next to it (function and class names, for counting by name).
    if (process.env.BENCH_HEAP_SNAPSHOT === "1")
      writeFileSync(`${heapFile}.heapsnapshot`, Bun.generateHeapSnapshot("v8"));
    writeFileSync(heapFile, JSON.stringify(heapStats()));
  });
}

export function startLagLog(label: string, thresholdMs = 25) {
  if (process.env.BENCH_LAG_LOG !== "1") return;
  let last = performance.now();
  setInterval(() => {
    const t = performance.now();
    const lag = t - last - 5;
    last = t;
    if (lag > thresholdMs) {
      // heapSize() is cheap; heapStats() walks the heap and would itself stall a big server, again and again.
      console.log(
        `[lag ${label}] ${Math.round(lag)} ms at ${Date.now() % 1_000_000} heap ${Math.round(heapSize() / 1e6)} MB`,
      );
    }
  }, 5).unref();
}
