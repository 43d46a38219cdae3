/**
 * The duel's trust rules as figures and the notes a player reads about them (product-rules "Trust rules"): shared by
 * the server (records.ts, store.ts) and the web's duel page, so the page never states another number than the one
 * the server applies. Pure, no imports.
 */

/**
 * A duel forfeited (a leave, or a connection that dropped and stayed away) within this long of play is neither
 * stored nor rated: a win by an opponent who left 0.3 s in says nothing about either player, and four of them in
 * 75 s once made a win streak #1.
 */
export const EARLY_FORFEIT_MS = 10_000;

/** How many duels of the same two members are rated per Seoul day; further ones are stored unrated. */
export const RATED_DUELS_PER_PAIR_A_DAY = 3;

/** Why a duel moved no rating, as the duel page says it. */
export const UNRATED_NOTES = {
  early: `시작 ${EARLY_FORFEIT_MS / 1000}초 안에 나가거나 연결이 끊겨 끝난 대결은 기록되지 않습니다.`,
  pairLimit: `같은 상대와는 하루 ${RATED_DUELS_PER_PAIR_A_DAY}번까지만 레이팅이 바뀝니다. 이 대결은 기록만 되었습니다.`,
} as const;

/** A direct challenge waits this long for its answer (product-rules "Playing together"); the page counts it down. */
export const CHALLENGE_TTL_MS = 15_000;

/** A watcher's chat line: at most this many characters (as a room's chat). */
export const WATCH_CHAT_MAX_LENGTH = 200;
