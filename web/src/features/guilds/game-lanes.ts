/**
 * The guild game's participants drawn as the rooms' lanes (`rooms/race-lanes.tsx`, product-rules "Live race and
 * replays"): the correct prefix's share, live 타/분, the place once finished; and who watches.
 */
import type { Lane } from "../rooms/types";
import type { GuildGameState } from "./types";

/** One lane per participant, keyed by user id (the page's own lane is `String(myUserId)`). */
export function guildLanes(game: GuildGameState | null): Lane[] {
  return (game?.participants ?? []).map((p) => ({
    key: p.user_id,
    name: p.username,
    progress: p.progress,
    wpm: Math.round(p.wpm),
    completed: p.completed,
    ...(p.position !== null ? { position: p.position } : {}),
  }));
}

/** The server's word on this page's role: a member is watching when the game lists them among its spectators. */
export const isWatching = (game: GuildGameState | null, userId: number | null) =>
  userId !== null && (game?.spectators ?? []).some((s) => s.user_id === userId);
