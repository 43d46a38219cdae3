/**
 * A CPU profile of the measured window only (BENCH_WINDOW_PROF=<dir>): SIGUSR1 starts the profiler, the next SIGUSR1
 * stops it and writes `<dir>/<pid>.cpuprofile` (Chrome DevTools format). `--cpu-prof` covers the whole process,
 * where the players' connections and joins hide the steady state the figures are about.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { join } from "node:path";

export function profileWindowOnSignal(dir: string | undefined) {
  if (!dir) return;
  const session = new Session();
  session.connect();
  let running = false;
  process.on("SIGUSR1", () => {
    if (!running) {
      running = true;
      // Asks for a sample every 100 µs; Bun 1.4.5 still took only ~30 a second of busy time here, so compare
      // subsystems over long windows, not single functions.
      session.post("Profiler.enable", () =>
        session.post("Profiler.setSamplingInterval", { interval: 100 }, () => session.post("Profiler.start")),
      );
      return;
    }
    running = false;
    session.post("Profiler.stop", (error, result) => {
      if (error || !result) return console.error("window profile failed", error);
      writeFileSync(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
