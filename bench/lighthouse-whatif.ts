/**
 * Lighthouse's own simulation of a slow phone (its "lantern" model, the one the mobile preset scores with) run again
 * on a run kept by `bun bench/lighthouse.ts … --reports DIR --traces`, optionally with the page's requests changed:
 * what a change would do to FCP, LCP and TBT before building it, without the noise of a new run on a busy machine
 * (the same trace, the same main-thread tasks).
 *
 *   bun bench/lighthouse-whatif.ts DIR/03-_rooms_1.trace.json                   # FCP, LCP, TBT as the report had them
 *   bun bench/lighthouse-whatif.ts … --graph                    # every request and task on LCP's path, simulated times
 *   bun bench/lighthouse-whatif.ts … --drop 'woff2$'            # as if those requests had not been made
 *   bun bench/lighthouse-whatif.ts … --early 'room-page'        # as if the HTML had named them (a preload)
 *   bun bench/lighthouse-whatif.ts … --size '118-(400|700)=36000' --drop 'kr-(?!118-)'   # one bigger file
 *
 * How the model reads a load (lantern, @paulirish/trace_engine): LCP is simulated over every request that ended
 * before the LCP observed in the real (unthrottled) load, each after what it depends on (its initiator, or the
 * main-thread task that sent it when it is a script or a fetch), at 150 ms round trips and 1.6 Mbit/s shared by
 * all, six connections per origin over HTTP/1.1; main-thread tasks are the observed ones, slowed down.
 */
import { readFileSync } from "node:fs";
import { LanternFirstContentfulPaint } from "lighthouse/core/computed/metrics/lantern-first-contentful-paint.js";
import { LanternLargestContentfulPaint } from "lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js";
import { LanternTotalBlockingTime } from "lighthouse/core/computed/metrics/lantern-total-blocking-time.js";
import { defaultSettings } from "lighthouse/core/config/constants.js";

interface DevtoolsEvent {
  method: string;
  params: {
    requestId?: string;
    request?: { url: string };
    type?: string;
    encodedDataLength?: number;
    initiator?: unknown;
  };
}
interface TraceEvent {
  name: string;
  args?: { data?: { requestId?: string } };
}
interface Kept {
  trace: { traceEvents: TraceEvent[] };
  devtoolsLog: DevtoolsEvent[];
}

function parseArgs(argv: string[]) {
  const [file, ...rest] = argv;
  if (!file) throw new Error("usage: bun bench/lighthouse-whatif.ts RUN.trace.json [--drop RE] [--early RE] …");
  const options = { file, drop: [] as RegExp[], early: [] as RegExp[], size: [] as [RegExp, number][], graph: false };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "--drop") options.drop.push(new RegExp(rest[++i]));
    else if (arg === "--early") options.early.push(new RegExp(rest[++i]));
    else if (arg === "--size") {
      const [pattern, bytes] = rest[++i].split(/=(?=\d+$)/);
      options.size.push([new RegExp(pattern), Number(bytes)]);
    } else if (arg === "--graph") options.graph = true;
    else throw new Error(`unknown option ${arg}`);
  }
  return options;
}

/** The request ids whose URL matches one of `patterns`. */
function requestIds(log: DevtoolsEvent[], patterns: RegExp[]): Set<string> {
  const ids = new Set<string>();
  for (const event of log) {
    const url = event.method === "Network.requestWillBeSent" ? event.params.request?.url : undefined;
    if (url && patterns.some((pattern) => pattern.test(url))) ids.add(event.params.requestId!);
  }
  return ids;
}

/** The kept run with the asked changes applied to its DevTools log (and, for --early, to its trace). */
function changedRun(kept: Kept, options: ReturnType<typeof parseArgs>): Kept {
  let log = kept.devtoolsLog;
  let events = kept.trace.traceEvents;
  const documentUrl = log.find(
    (event) => event.method === "Network.requestWillBeSent" && event.params.type === "Document",
  )?.params.request?.url;
  const dropped = requestIds(log, options.drop);
  log = log.filter((event) => !(event.params?.requestId && dropped.has(event.params.requestId)));
  // A preload from the HTML: started by the parser, not by the script task that sent it.
  const early = requestIds(log, options.early);
  log = log.map((event) =>
    event.method === "Network.requestWillBeSent" && early.has(event.params.requestId!)
      ? { ...event, params: { ...event.params, initiator: { type: "parser", url: documentUrl } } }
      : event,
  );
  events = events.filter(
    (event) => !(event.name === "ResourceSendRequest" && early.has(event.args?.data?.requestId ?? "")),
  );
  for (const [pattern, bytes] of options.size) {
    const ids = requestIds(log, [pattern]);
    log = log.map((event) => {
      if (!event.params?.requestId || !ids.has(event.params.requestId)) return event;
      if (event.method === "Network.loadingFinished")
        return { ...event, params: { ...event.params, encodedDataLength: bytes } };
      if (event.method === "Network.dataReceived")
        return { ...event, params: { ...event.params, encodedDataLength: 0 } };
      return event;
    });
  }
  return { trace: { ...kept.trace, traceEvents: events }, devtoolsLog: log };
}

interface NodeTiming {
  startTime: number;
  endTime: number;
}
interface GraphNode {
  type: "network" | "cpu";
  duration: number;
  request?: { url: string; resourceType: string; transferSize: number };
}

function printGraph(title: string, timings: Map<GraphNode, NodeTiming>) {
  console.log(`${title}:`);
  const rows = [...timings].sort((a, b) => a[1].startTime - b[1].startTime);
  for (const [node, timing] of rows) {
    const what =
      node.type === "network"
        ? `${node.request!.resourceType} ${node.request!.url.split("/").pop()?.slice(0, 60)} (${Math.round(node.request!.transferSize / 1024)} KiB)`
        : `main thread, ${Math.round(node.duration / 1000)} ms observed`;
    console.log(
      `  ${String(Math.round(timing.startTime)).padStart(5)} → ${String(Math.round(timing.endTime)).padStart(5)} ms  ${what}`,
    );
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const run = changedRun(JSON.parse(readFileSync(options.file, "utf8")) as Kept, options);
  const mainUrl = run.devtoolsLog.find(
    (event) => event.method === "Network.requestWillBeSent" && event.params.type === "Document",
  )?.params.request?.url;
  const settings = { ...defaultSettings };
  const data = {
    trace: run.trace,
    devtoolsLog: run.devtoolsLog,
    gatherContext: { gatherMode: "navigation" },
    settings,
    URL: { requestedUrl: mainUrl, mainDocumentUrl: mainUrl, finalDisplayedUrl: mainUrl },
    SourceMaps: [],
    HostDPR: 1,
    simulator: null,
  };
  const context = { computedCache: new Map(), settings };
  // biome-ignore lint/suspicious/noExplicitAny: Lighthouse's internal computed artifacts, typed for its own artifacts
  const request = (metric: any) => metric.request(data, context);
  const fcp = await request(LanternFirstContentfulPaint);
  const lcp = await request(LanternLargestContentfulPaint);
  const tbt = await request(LanternTotalBlockingTime);
  console.log(
    `FCP ${Math.round(fcp.timing)} ms, LCP ${Math.round(lcp.timing)} ms, TBT ${Math.round(tbt.timing)} ms (Lighthouse's simulation)`,
  );
  if (options.graph) printGraph("LCP's path (pessimistic graph)", lcp.pessimisticEstimate.nodeTimings);
}

await main();
