/**
 * The ghost of 오늘의 문장 (product-rules "Live race and replays": a ghost is a replay of the same sentence drawn as
 * a lane beside the player): which one the next attempt races, and the two lanes at a moment of the attempt. Pure,
 * so the rules are unit-tested.
 */
import { figuresOf, frameAt, replayLength } from "../replays/replay-frames";
import type { Replay } from "../replays/types";
import type { Lane } from "../rooms/types";
import type { BestEntry, BoardEntry } from "./types";

export type GhostChoice = "mine" | "leader" | "none";

/** A ghost the player may race: whose best it is, its replay's key and the lane's name. */
export interface GhostOption {
  choice: Exclude<GhostChoice, "none">;
  replayKey: string;
  label: string;
  wpm: number;
}

export interface GhostOptions {
  mine: GhostOption | null;
  leader: GhostOption | null;
}

/** The lanes' keys: the player's own lane is marked ("나") by the lanes component. */
export const PLAYER_LANE = "me";
export const GHOST_LANE = "ghost";

/** The player's best of the day and the board's first entry, as ghosts (an entry without a replay is none). */
export function ghostOptions(myBest: BestEntry | null, leader: BoardEntry | undefined): GhostOptions {
  return {
    mine: myBest?.replay_key
      ? { choice: "mine", replayKey: myBest.replay_key, label: "내 최고 기록", wpm: myBest.wpm }
      : null,
    leader: leader?.replay_key
      ? { choice: "leader", replayKey: leader.replay_key, label: `1위 ${leader.nickname}`, wpm: leader.wpm }
      : null,
  };
}

/**
 * The ghost of the next attempt: the player's pick when there is one to race; otherwise the player's own best if
 * any, else the leader's, else none (an empty board and no attempt yet).
 */
export function pickGhost(options: GhostOptions, picked: GhostChoice | null): GhostOption | null {
  if (picked === "none") return null;
  if (picked && options[picked]) return options[picked];
  return options.mine ?? options.leader;
}

/** When the ghost crosses the line: its answer's arrival, in ms since the round started. */
export const ghostFinishMs = (replay: Replay) => replayLength(replay.steps, replay.result.completion_time);

export interface RaceMoment {
  sentence: string;
  /** ms since the sentence appeared (the ghost's steps are stamped from the same moment of its own round). */
  atMs: number;
  player: { name: string; typed: string; result: { wpm: number; completion_time: number } | null };
  ghost: { label: string; replay: Replay } | null;
}

/**
 * The player's lane and the ghost's at a moment: each filling along the sentence with its live 타/분, the ghost
 * replayed from its steps at the real pace. Whoever has finished gets a place by completion time (the player ahead
 * on a tie); a lane still running has none.
 */
export function raceLanes({ sentence, atMs, player, ghost }: RaceMoment): Lane[] {
  const playerFrame = figuresOf(player.typed, sentence, Math.max(0, atMs));
  const finished: { key: string; seconds: number }[] = [];
  if (player.result) finished.push({ key: PLAYER_LANE, seconds: player.result.completion_time });
  const ghostDone = ghost !== null && atMs >= ghostFinishMs(ghost.replay);
  if (ghost && ghostDone) finished.push({ key: GHOST_LANE, seconds: ghost.replay.result.completion_time });
  finished.sort((a, b) => a.seconds - b.seconds || (a.key === PLAYER_LANE ? -1 : 1));
  const positionOf = (key: string) => {
    const index = finished.findIndex((entry) => entry.key === key);
    return index < 0 ? undefined : index + 1;
  };
  const lanes: Lane[] = [
    {
      key: PLAYER_LANE,
      name: player.name,
      progress: playerFrame.progress,
      wpm: player.result?.wpm ?? playerFrame.wpm,
      completed: player.result !== null,
      position: positionOf(PLAYER_LANE),
    },
  ];
  if (ghost) {
    const { replay } = ghost;
    const frame = frameAt(replay.steps, replay.sentence, Math.max(0, Math.min(atMs, ghostFinishMs(replay))));
    lanes.push({
      key: GHOST_LANE,
      name: ghost.label,
      progress: frame.progress,
      wpm: ghostDone ? replay.result.wpm : frame.wpm,
      completed: ghostDone,
      position: positionOf(GHOST_LANE),
    });
  }
  return lanes;
}
