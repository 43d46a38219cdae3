/**
 * What every load benchmark measures with: command-line options, /proc CPU readings of a process and of the
 * machine, waiting for a quiet machine, pinning, latency samples and the generator's event-loop lag.
 */
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { sleep } from "./launch-server";

const now = () => performance.now();

export function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}

// --- /proc readings --------------------------------------------------------------------------------------------

export const CLOCK_TICKS = 100; // getconf CLK_TCK on Linux

/** utime and stime of a process (all its threads) in microseconds. */
export function processCpuSplit(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return {
    user: (Number(fields[11]) * 1_000_000) / CLOCK_TICKS,
    system: (Number(fields[12]) * 1_000_000) / CLOCK_TICKS,
  };
}

export function processCpuMicros(pid: number): number {
  const { user, system } = processCpuSplit(pid);
  return user + system;
}

/** Busy time of the whole machine (all cores) in microseconds, from /proc/stat. */
export function machineBusyMicros(): number {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0]; // "cpu  user nice system idle iowait irq softirq steal"
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return ((user + nice + system + irq + softirq + steal) * 1_000_000) / CLOCK_TICKS;
}

/**
 * Other processes on this 2-core machine (other sessions' tests, browsers) would skew every figure. Waits
 * (bounded) until the machine is nearly idle before a run. `ownPids`: processes of the benchmark itself (a server
 * that keeps running between phases), whose CPU is not "other processes"; this process never counts either then.
 */
export async function waitForQuiet(maxWaitS: number, foreignLimit = 0.1, ownPids: number[] = []) {
  const deadline = now() + maxWaitS * 1000;
  const own = () => {
    if (ownPids.length === 0) return 0;
    const self = process.cpuUsage();
    return ownPids.reduce((sum, pid) => sum + processCpuMicros(pid), self.user + self.system);
  };
  for (;;) {
    const before = machineBusyMicros() - own();
    await sleep(2000);
    const busy = Math.max(0, machineBusyMicros() - own() - before) / 2_000_000; // cores
    if (busy < foreignLimit) return busy;
    if (now() > deadline) {
      console.log(
        `  machine still busy (${(busy * 100).toFixed(0)} % of a core used by other processes); running anyway`,
      );
      return busy;
    }
    console.log(`  waiting for a quiet machine: ${(busy * 100).toFixed(0)} % of a core busy with other processes`);
    await sleep(5000);
  }
}

export function machine() {
  const cpuinfo = readFileSync("/proc/cpuinfo", "utf8");
  return {
    nproc: cpus().length,
    cpu_model: /model name\s*:\s*(.+)/.exec(cpuinfo)?.[1]?.trim() ?? "unknown",
    bun: Bun.version,
    kernel: readFileSync("/proc/sys/kernel/osrelease", "utf8").trim(),
    fd_limit: Number(Bun.spawnSync(["sh", "-c", "ulimit -n"]).stdout.toString().trim()),
  };
}

export function pinSelf(core: string) {
  const done = Bun.spawnSync(["taskset", "-cp", core, String(process.pid)]);
  if (done.exitCode !== 0) console.warn(`could not pin the generator to core ${core}`);
}

/**
 * After a crowd connects the server still owes it what it sent on the way (room lists, every arrival's users
 * update): waits (bounded, 180 s) until the server's CPU stays under half a core for 3 s, so a measurement window
 * does not pay for the ramp. `describe` adds a diagnostic to each second's line (BENCH_LAG_LOG=1 prints them).
 */
export async function waitForServerCalm(pid: number, describe: () => string = () => "") {
  const start = now();
  let calm = 0;
  for (let second = 0; second < 180 && calm < 3; second++) {
    const before = processCpuMicros(pid);
    await sleep(1000);
    const load = (processCpuMicros(pid) - before) / 1e6;
    calm = load < 0.5 ? calm + 1 : 0;
    if (process.env.BENCH_LAG_LOG === "1")
      console.log(`  settle: server CPU ${(load * 100).toFixed(0)} %${describe()}`);
  }
  const seconds = (now() - start) / 1000;
  console.log(`  settled in ${seconds.toFixed(0)} s`);
  return seconds;
}

/** What a measurement window read from /proc: the server's CPU, the generator's, and everything else's. */
export interface WindowReadings {
  elapsedS: number;
  serverUserUs: number;
  serverSystemUs: number;
  serverUs: number;
  /** This process (the generator), in cores. */
  generatorCpu: number;
  /** The generator's helper processes (`helperPids`) together, in cores. */
  helpersCpu: number;
  /** The machine's busy time minus the server, the generator and its helpers: other processes, in cores. */
  foreignCores: number;
}

/** Starts reading a window; `finish()` at its end. `helperPids`: more processes of the generator's own. */
export function startWindowReadings(serverPid: number, helperPids: number[] = []) {
  const helpersUs = () => helperPids.reduce((sum, pid) => sum + processCpuMicros(pid), 0);
  const split0 = processCpuSplit(serverPid);
  const gen0 = process.cpuUsage();
  const helpers0 = helpersUs();
  const machine0 = machineBusyMicros();
  const start = now();
  return {
    finish(): WindowReadings {
      const split1 = processCpuSplit(serverPid);
      const gen = process.cpuUsage(gen0);
      const helpers = helpersUs() - helpers0;
      const machine1 = machineBusyMicros();
      const elapsedS = (now() - start) / 1000;
      const serverUserUs = split1.user - split0.user;
      const serverSystemUs = split1.system - split0.system;
      const serverUs = serverUserUs + serverSystemUs;
      const generatorUs = gen.user + gen.system;
      return {
        elapsedS,
        serverUserUs,
        serverSystemUs,
        serverUs,
        generatorCpu: generatorUs / 1e6 / elapsedS,
        helpersCpu: helpers / 1e6 / elapsedS,
        foreignCores: Math.max(0, (machine1 - machine0 - serverUs - generatorUs - helpers) / 1e6 / elapsedS),
      };
    },
  };
}

/** Why a window's latencies cannot be trusted (none: valid). A reason starting with DISTURBED is worth a retry. */
export const DISTURBED = "disturbed";

export interface WindowLimits {
  /** Generator event-loop lag p99, ms. */
  lagLimitMs: number;
  /** Share of the window the generator may spend blocked (> 5 ms at a stretch): beyond it, p99 latencies lie. */
  stallLimit: number;
  /** Generator CPU, in cores. */
  cpuLimit: number;
  /** Other processes' CPU, in cores. */
  foreignLimit: number;
}

export const WINDOW_LIMITS: WindowLimits = { lagLimitMs: 20, stallLimit: 0.01, cpuLimit: 0.9, foreignLimit: 0.1 };

export function generatorAndMachineReasons(m: WindowMetrics, readings: WindowReadings, limits = WINDOW_LIMITS) {
  const reasons: string[] = [];
  const [lag99] = m.lag.percentiles(99);
  if (lag99 > limits.lagLimitMs) reasons.push(`generator lag p99 ${lag99.toFixed(1)} ms > ${limits.lagLimitMs} ms`);
  const stalledShare = m.stalledMs / 1000 / readings.elapsedS;
  if (stalledShare > limits.stallLimit) {
    reasons.push(
      `generator stalled ${(stalledShare * 100).toFixed(1)} % of the window (> ${limits.stallLimit * 100} %)`,
    );
  }
  if (readings.generatorCpu > limits.cpuLimit) {
    reasons.push(`generator CPU ${(readings.generatorCpu * 100).toFixed(0)} % > ${limits.cpuLimit * 100} %`);
  }
  if (readings.foreignCores > limits.foreignLimit) {
    reasons.push(`${DISTURBED}: other processes used ${(readings.foreignCores * 100).toFixed(0)} % of a core`);
  }
  return reasons;
}

// --- statistics ------------------------------------------------------------------------------------------------

export class Samples {
  private values = new Float64Array(1 << 16);
  length = 0;
  push(value: number) {
    if (this.length === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = value;
  }
  concat(other: Samples) {
    for (let i = 0; i < other.length; i++) this.push(other.values[i]);
    return this;
  }
  mean(): number {
    let sum = 0;
    for (let i = 0; i < this.length; i++) sum += this.values[i];
    return this.length === 0 ? Number.NaN : sum / this.length;
  }
  /** The share of the values above `limit` (0 when there are none). */
  shareAbove(limit: number): number {
    let above = 0;
    for (let i = 0; i < this.length; i++) if (this.values[i] > limit) above++;
    return this.length === 0 ? 0 : above / this.length;
  }
  percentiles(...ps: number[]): number[] {
    if (this.length === 0) return ps.map(() => Number.NaN);
    const sorted = this.values.slice(0, this.length).sort();
    return ps.map((p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);
  }
}

/** Samples the event-loop lag of this process (a 10-ms timer) into `m` while `m.recording`. */
export function startLagSampler(m: { recording: boolean; lag: Samples; stalledMs: number }) {
  const interval = 10;
  let last = now();
  const timer = setInterval(() => {
    const t = now();
    if (m.recording) {
      const lag = Math.max(0, t - last - interval);
      m.lag.push(lag);
      if (lag > 5) m.stalledMs += lag;
    }
    last = t;
  }, interval);
  return () => clearInterval(timer);
}

/** What every load run counts, in its measurement window (counters count inside it unless said otherwise). */
export class WindowMetrics {
  recording = false;
  windowStart = Number.POSITIVE_INFINITY;
  windowEnd = Number.POSITIVE_INFINITY;
  /** Frames the players received in the window, their characters, and how many of each event. */
  delivered = 0;
  deliveredChars = 0;
  byEvent = new Map<string, number>();
  errors = new Map<string, number>();
  lag = new Samples();
  /** Time the generator's event loop was blocked by more than 5 ms at a stretch. */
  stalledMs = 0;
  closedUnexpectedly = 0;
  inWindow = (at: number) => at >= this.windowStart && at < this.windowEnd;
  count(map: Map<string, number>, key: string) {
    map.set(key, (map.get(key) ?? 0) + 1);
  }
}

/** Runs `step` for every item, `concurrency` at a time (connecting thousands of players); answers the failures. */
export async function eachConcurrently<T>(items: readonly T[], concurrency: number, step: (item: T) => Promise<void>) {
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      try {
        await step(item);
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return failed;
}
