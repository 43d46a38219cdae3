import { badRequest } from "../kernel/errors";
import type { GameModeId, GameRef } from "../kernel/game-mode";
import type { RaceStep } from "../kernel/race-steps";
import { average2 } from "../kernel/typing";
import type { Medal } from "./schema";

/**
 * The rules of the game records, shared by every store (SQLite now, PostgreSQL with issue 11): what a valid
 * result and game identity are, which medals a finish may grant, and which calendar day a result counts for.
 */

export const MEDALS: readonly Medal[] = ["gold", "silver", "bronze"];
/** product-rules "Typing rooms": medals (and position bonuses) only in games where at least 2 players submitted. */
export const MEDAL_MIN_COUNTED_RESULTS = 2;
export const RESULTS_LIMIT = { min: 1, max: 200, default: 50 } as const;

/**
 * Which game of which mode, as stored: the kernel's `GameRef` (what every game host builds) with the source id as
 * text. A host finds the same row again with it (after a retry or a restart).
 */
export interface StoredGameRef {
  mode: GameModeId;
  /** The room id (sentence_race) or guild id (guild_game), as text (duels are not written here: README). */
  sourceId: string;
  /** The room's or guild's name at the time (shown as `room_name` in the records). */
  sourceName: string;
  /** 1, 2, 3… per (mode, source id); see `lastRound`. */
  round: number;
  startedAt: number;
  /** The owning process's lease epoch (several processes); absent on one process: no fencing check. */
  epoch?: number;
}

export interface ResultInput {
  /** The member, or null for a guest. */
  userId: number | null;
  /** `u_<userId>` for a member, `g_<hash>` for a guest: the stable public id of the player. */
  playerKey: string;
  /** The username or guest nickname at the time. */
  nickname: string;
  /** Speed in 타/분. */
  wpm: number;
  /** Percent, 0–100. */
  accuracy: number;
  /** Seconds. */
  completionTime: number;
  /** Arrival or finish order (1 = first), null when the result got no position. */
  position: number | null;
  errorCount: number;
  /** Rejected as implausible: stored for the record, never counted in aggregates, records or medals. */
  implausible?: boolean;
  /**
   * The server-stamped steps showed the answer typed (product-rules "Live race and replays"). Omitted: false — a
   * result nobody vouched for is stored, counted and rewarded, but never ranked.
   */
  verified?: boolean;
  /**
   * The game counts in the rankings (the default). False for games whose places were agreed among friends (a
   * private room, product-rules "Playing together"): the result is stored, counted in the records and the account
   * like any other, and never added to the aggregates the rankings read.
   */
  ranked?: boolean;
  /** The result's steps as its replay (README "Replays"); none, or no steps: the result has no replay. */
  replay?: ReplayInput | null;
  /** The mode's item (the sentence id of a race, the problem of a guild game). */
  itemId?: number | null;
  /** When the result was accepted (epoch ms); the clock's now when omitted. */
  createdAt?: number;
}

/**
 * Whether a stored result counts toward the rankings (product-rules "Live race and replays", "Playing together"):
 * neither implausible nor unverified, and of a ranked game. The one rule behind games' daily aggregates and the
 * rankings' periods (the rankings also leave out modes of their own, `UNRANKED_MODES`).
 */
export const isRankedResult = (result: { implausible?: boolean; verified?: boolean; ranked?: boolean }) =>
  result.implausible !== true && result.verified === true && result.ranked !== false;

/** A result's replay as a mode hands it over: the key it drew (`newReplayKey`), what was typed, the steps. */
export interface ReplayInput {
  key: string;
  /** The sentence or problem the player typed (kept with the replay: README "Replays"). */
  sentence: string;
  steps: readonly RaceStep[];
}

/** A replay key: 16 random bytes in base64url (128 bits, product-rules: ≥ 96), URL-safe. */
export const REPLAY_KEY = /^[A-Za-z0-9_-]{22}$/;

/** A new replay key, from the platform's cryptographic random source. */
export function newReplayKey(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64url");
}

export interface MedalGrant {
  playerKey: string;
  medal: Medal;
}

export interface FinishInput {
  endedAt: number;
  /** Players with an accepted result, as the host counts them. */
  participants: number;
  medals: readonly MedalGrant[];
}

const INVALID_GAME = "게임 정보가 올바르지 않습니다.";
const INVALID_RESULT = "게임 결과가 올바르지 않습니다.";
const MEMBER_KEY = /^u_[1-9][0-9]{0,9}$/;
const GUEST_KEY = /^g_[A-Za-z0-9_-]{1,64}$/;

const isCount = (n: unknown) => Number.isInteger(n) && (n as number) >= 0;
const isTime = (n: unknown) => Number.isFinite(n) && (n as number) >= 0;

/** The kernel's `GameRef` (a room names its source by number) as this module stores it. */
export const toStoredRef = (game: GameRef): StoredGameRef => ({ ...game, sourceId: String(game.sourceId) });

export function checkGameRef(game: StoredGameRef) {
  const ok =
    typeof game.mode === "string" &&
    game.mode.length > 0 &&
    typeof game.sourceId === "string" &&
    game.sourceId.length > 0 &&
    typeof game.sourceName === "string" &&
    Number.isInteger(game.round) &&
    game.round >= 1 &&
    isTime(game.startedAt) &&
    (game.epoch === undefined || isOwnerEpoch(game.epoch));
  if (!ok) throw badRequest(INVALID_GAME, "invalid_game");
}

/** A lease epoch: a positive whole number (Redis' INCR starts at 1). */
const isOwnerEpoch = (epoch: unknown) => Number.isInteger(epoch) && (epoch as number) >= 1;

/** A claim names a source and an owner's lease epoch (a bad one is a host's bug, never stored). */
export function checkOwnerClaim(source: { mode: string; sourceId: string; epoch: number }) {
  const ok = source.mode.length > 0 && source.sourceId.length > 0 && isOwnerEpoch(source.epoch);
  if (!ok) throw badRequest(INVALID_GAME, "invalid_game");
}

/** A member's key must name that member, a guest's must be a guest key: one player never has two keys. */
export function checkResult(result: ResultInput) {
  const keyOk =
    result.userId === null
      ? GUEST_KEY.test(result.playerKey)
      : Number.isInteger(result.userId) &&
        result.playerKey === `u_${result.userId}` &&
        MEMBER_KEY.test(result.playerKey);
  const ok =
    keyOk &&
    typeof result.nickname === "string" &&
    result.nickname.length > 0 &&
    isCount(result.wpm) &&
    Number.isFinite(result.accuracy) &&
    result.accuracy >= 0 &&
    result.accuracy <= 100 &&
    isTime(result.completionTime) &&
    (result.position === null || (Number.isInteger(result.position) && result.position >= 1)) &&
    isCount(result.errorCount) &&
    (result.itemId == null || Number.isInteger(result.itemId)) &&
    (result.verified === undefined || typeof result.verified === "boolean") &&
    (result.ranked === undefined || typeof result.ranked === "boolean") &&
    (result.replay == null ||
      (REPLAY_KEY.test(result.replay.key) &&
        typeof result.replay.sentence === "string" &&
        Array.isArray(result.replay.steps))) &&
    (result.createdAt === undefined || isTime(result.createdAt));
  if (!ok) throw badRequest(INVALID_RESULT, "invalid_result");
}

export function checkFinish(finish: FinishInput) {
  const ok =
    isTime(finish.endedAt) &&
    isCount(finish.participants) &&
    finish.medals.every((m) => typeof m.playerKey === "string" && MEDALS.includes(m.medal));
  if (!ok) throw badRequest(INVALID_GAME, "invalid_finish");
}

const DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
const SORTS = ["wpm", "games", "medals"];

/** A period of days (`YYYY-MM-DD`, first ≤ last), a known sort and a positive whole limit. */
export function checkPeriod(query: { fromDay: string; toDay: string; sort?: string; limit?: number }) {
  const ok =
    DAY.test(query.fromDay) &&
    DAY.test(query.toDay) &&
    query.fromDay <= query.toDay &&
    (query.sort === undefined || SORTS.includes(query.sort)) &&
    (query.limit === undefined || (Number.isInteger(query.limit) && query.limit >= 1));
  if (!ok) throw badRequest("조회 기간이 올바르지 않습니다.", "invalid_period");
}

/**
 * The medals a finish really grants: none when fewer than 2 counted results exist, and only to players with a
 * counted result that has no medal yet (so a second finish, or a grant to an implausible result, changes nothing).
 */
export function grantableMedals(
  requested: readonly MedalGrant[],
  counted: readonly { playerKey: string; medal: Medal | null }[],
): MedalGrant[] {
  if (counted.length < MEDAL_MIN_COUNTED_RESULTS) return [];
  const open = new Set(counted.filter((r) => r.medal === null).map((r) => r.playerKey));
  const granted: MedalGrant[] = [];
  for (const grant of requested) {
    if (!open.delete(grant.playerKey)) continue;
    granted.push({ playerKey: grant.playerKey, medal: grant.medal });
  }
  return granted;
}

export const clampResultsLimit = (limit: number | undefined) =>
  Math.min(RESULTS_LIMIT.max, Math.max(RESULTS_LIMIT.min, Math.trunc(limit ?? RESULTS_LIMIT.default)));

/** Sums of a period over one player, as the aggregate rows hold them. */
export interface PlayerSums {
  games: number;
  wpmSum: number;
  accuracySum: number;
}

/** Average speed and accuracy of a period, 2 decimals (the kernel's `average2`: the account's and rankings' rule). */
export const averages = ({ games, wpmSum, accuracySum }: PlayerSums) => ({
  avgWpm: average2(wpmSum, games),
  avgAccuracy: average2(accuracySum, games),
});

/** Medal score for orderings: gold 3, silver 2, bronze 1 (product-rules "Rankings and profile"). */
export const MEDAL_SCORE = { gold: 3, silver: 2, bronze: 1 } as const;

/** The Asia/Seoul calendar day (`YYYY-MM-DD`) a result counts for: the day it was accepted. */
export { seoulDate as resultDay } from "../kernel/seoul-time";
