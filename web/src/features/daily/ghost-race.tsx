/**
 * The ghost beside the player (README "Ghosts"): the choice of whom to race, and the two lanes during an attempt
 * (the rooms' lanes component: a labelled progressbar each), the ghost replayed from its steps (`GET
 * /api/replays/{key}`) at the real pace from the moment the sentence appeared.
 */
import { useEffect, useState } from "react";
import { useNow } from "../../lib/use-now";
import { replaysApi } from "../replays/replays-api";
import type { Replay } from "../replays/types";
import { RaceLanes } from "../rooms/race-lanes";
import { type GhostChoice, type GhostOption, type GhostOptions, ghostFinishMs, PLAYER_LANE, raceLanes } from "./ghost";

/** The lanes move 10 times a second (the steps arrive at most that often). */
const LANE_TICK_MS = 100;

/** A replay never changes once stored: each is fetched once per visit. */
const replays = new Map<string, Replay>();

/** The ghost's replay (null until it arrives, or when it cannot be read: the attempt goes on without a ghost). */
export function useGhostReplay(key: string | null): Replay | null {
  const [loaded, setLoaded] = useState<Replay | null>(key ? (replays.get(key) ?? null) : null);
  useEffect(() => {
    if (!key) return setLoaded(null);
    const cached = replays.get(key);
    if (cached) return setLoaded(cached);
    setLoaded(null);
    const controller = new AbortController();
    replaysApi.get(key, controller.signal).then(
      (replay) => {
        replays.set(key, replay);
        setLoaded(replay);
      },
      () => {},
    );
    return () => controller.abort();
  }, [key]);
  return loaded;
}

const CHOICES: { value: GhostChoice; text: (options: GhostOptions) => string }[] = [
  { value: "mine", text: (o) => (o.mine ? `내 최고 기록 (${o.mine.wpm}타/분)` : "내 최고 기록 (아직 없음)") },
  { value: "leader", text: (o) => (o.leader ? `${o.leader.label} (${o.leader.wpm}타/분)` : "1위 기록 (아직 없음)") },
  { value: "none", text: () => "혼자 하기" },
];

/** Whom the next attempt races: radio buttons; a ghost that does not exist yet is shown disabled. */
export function GhostPicker({
  options,
  chosen,
  onPick,
}: {
  options: GhostOptions;
  chosen: GhostOption | null;
  onPick: (choice: GhostChoice) => void;
}) {
  const current: GhostChoice = chosen?.choice ?? "none";
  return (
    <fieldset className="daily-ghosts">
      <legend className="daily-ghosts-legend">함께 달릴 고스트</legend>
      {CHOICES.map((choice) => (
        <label key={choice.value} className="daily-ghost-choice">
          <input
            type="radio"
            name="daily-ghost"
            value={choice.value}
            checked={current === choice.value}
            disabled={choice.value !== "none" && !options[choice.value]}
            onChange={() => onPick(choice.value)}
          />
          {choice.text(options)}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The attempt's lanes: the player's (from the answer box) and the ghost's. They move while the attempt is in
 * play and, after it, until the ghost has crossed the line.
 */
export function GhostLanes({
  sentence,
  startedLocal,
  inPlay,
  player,
  ghost,
}: {
  sentence: string;
  /** When the sentence appeared here (null during the countdown: both lanes wait at the start). */
  startedLocal: number | null;
  inPlay: boolean;
  player: { name: string; typed: string; result: { wpm: number; completion_time: number } | null };
  ghost: { label: string; replay: Replay } | null;
}) {
  const ghostEnd = ghost ? ghostFinishMs(ghost.replay) : 0;
  // The clock stops once nothing moves any more (checked at each tick's render).
  const moving = startedLocal !== null && (inPlay || Date.now() - startedLocal <= ghostEnd + LANE_TICK_MS);
  const now = useNow(LANE_TICK_MS, moving);
  const atMs = startedLocal === null ? 0 : Math.max(0, now - startedLocal);
  return (
    <div className="daily-lanes">
      <RaceLanes lanes={raceLanes({ sentence, atMs, player, ghost })} myKey={PLAYER_LANE} />
    </div>
  );
}
