/**
 * The members the signed-in member blocked (modules/moderation README "Blocks"): kept on the server, read with the
 * member's moderation state at login (moderation-notices.tsx), changed by the report dialog and the blocks page.
 * Chat lines and posts of these members are hidden where they are shown (room, guild and duel watchers' chat, the
 * free board, the guild board, the recruitment list), every place through the two rules below: a list leaves them
 * out (`useWithoutBlocked`), a comment keeps its place and shows `BLOCKED_COMMENT` instead of its text.
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

/** What a blocked member's comment shows instead of its text (both boards). */
export const BLOCKED_COMMENT = "차단한 사용자의 댓글입니다.";

/** Leaves a blocked member's items (posts, chat lines) out of a list; `authorOf` names each item's member. */
export function useWithoutBlocked() {
  const isBlocked = useIsBlocked();
  return <Item>(items: readonly Item[], authorOf: (item: Item) => number | null | undefined): Item[] =>
    items.filter((item) => !isBlocked(authorOf(item)));
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
