/**
 * The members the signed-in member blocked (modules/moderation README "Blocks"): kept on the server, read with the
 * member's moderation state at login (moderation-notices.tsx), changed by the report dialog. Chat lines and posts of
 * these members are hidden where they are shown (room, guild and duel watchers' chat, the free board).
 */
import { atom, useAtomValue } from "jotai";
import { api } from "../../lib/api";
import { appStore } from "../../lib/store";

const blocked = atom<ReadonlySet<number>>(new Set<number>());
export const blockedUsersAtom = atom((get) => get(blocked));

export const setBlockedUsers = (ids: readonly number[]) => appStore.set(blocked, new Set(ids));

/** Whether this member's lines and posts are hidden for the viewer (guests and unknown authors never are). */
export function useIsBlocked() {
  const ids = useAtomValue(blockedUsersAtom);
  return (userId: number | null | undefined) => userId != null && ids.has(userId);
}

/** Blocks or unblocks on the server; answers the server's text. `showBlocked` then applies it on this page. */
export async function setBlock(userId: number, block: boolean) {
  const path = `/api/blocks/${userId}`;
  const answer = block ? await api.put<{ detail: string }>(path) : await api.delete<{ detail: string }>(path);
  return answer.detail;
}

/** Hides (or shows again) a member's lines and posts on this page. */
export function showBlocked(userId: number, block: boolean) {
  const next = new Set(appStore.get(blocked));
  if (block) next.add(userId);
  else next.delete(userId);
  appStore.set(blocked, next);
}
