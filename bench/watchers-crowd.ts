/**
 * The crowd process of bench/watchers-load.ts: every watcher of a scene, in a process of its own so that their
 * thousands of frames are not read by the players' event loop (watchers-scene.ts). Started by the generator with an
 * IPC channel (pinned to the generator's core, at a lower priority: the players' process is scheduled first when both
 * have frames to read); it answers each request (`ToCrowd`) with its `FromCrowd` and takes the players' news.
 */
import { startLagSampler } from "./measure";
import { DuelWatchers } from "./watchers-duel";
import { RoomWatchers } from "./watchers-room";
import {
  type CrowdPhase,
  type FromCrowd,
  fromEpoch,
  type PhaseMetrics,
  pooledFigures,
  type ToCrowd,
  toEpoch,
  type WatchersScene,
} from "./watchers-scene";

let scene: WatchersScene | null = null;
/** Every window's metrics, in order, for the pooled figures. */
const windows: PhaseMetrics[] = [];
let window: { m: PhaseMetrics; stopLag: () => void } | null = null;

const answer = (message: FromCrowd) => process.send!(message);

const optionsOf = (start: Extract<ToCrowd, { type: "start" }>) => ({
  port: start.port,
  watcherChatRate: start.watcherChatRate,
  connectConcurrency: start.concurrency,
});

function phaseOf(scene: WatchersScene, m: PhaseMetrics): CrowdPhase {
  return {
    watchersPresent: scene.inGame(),
    frames: m.delivered,
    byEvent: Object.fromEntries(m.byEvent),
    errors: Object.fromEntries(m.errors),
    chatLines: m.chatLines,
    chatReceived: m.chatReceived,
    sent: Object.fromEntries(m.sent),
    latency: pooledFigures(scene.latencies, [m.latency]),
    closedUnexpectedly: m.closedUnexpectedly,
    lagP99Ms: m.lag.percentiles(99)[0],
    stalledMs: m.stalledMs,
    aheadOfNews: scene.aheadOfNews(m),
  };
}

async function handle(message: ToCrowd) {
  switch (message.type) {
    case "start":
      scene =
        message.scene === "room"
          ? new RoomWatchers({ ...optionsOf(message), roomId: message.roomId })
          : new DuelWatchers(optionsOf(message));
      return answer({ type: "started" });
    case "clock":
      return answer({ type: "clock", sentAt: message.sentAt, at: toEpoch(performance.now()) });
    case "watchers":
      await scene!.setWatchers(message.count);
      return answer({ type: "watchers", inGame: scene!.inGame(), total: scene!.total() });
    case "open": {
      const m = scene!.metrics.open();
      m.windowStart = fromEpoch(message.windowStart);
      m.windowEnd = fromEpoch(message.windowEnd);
      m.recording = true;
      window = { m, stopLag: startLagSampler(m) };
      return answer({ type: "opened" });
    }
    case "close": {
      const { m, stopLag } = window!;
      stopLag();
      m.recording = false;
      const phase = phaseOf(scene!, m);
      scene!.metrics.close();
      windows.push(m);
      window = null;
      return answer({ type: "closed", phase });
    }
    case "pooled":
      return answer({
        type: "pooled",
        latency: pooledFigures(
          scene!.latencies,
          message.phases.map((i) => windows[i].latency),
        ),
      });
    case "stop":
      scene?.stop();
      setTimeout(() => process.exit(0), 500);
      return;
    default:
      scene?.news(message);
  }
}

process.on("message", (message) => {
  handle(message as ToCrowd).catch((error) => {
    console.error(`[crowd] ${String(error)}`);
    process.exit(1);
  });
});
