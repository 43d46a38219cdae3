/**
 * The role a live game's page (a typing room, a guild room) is opened with: its URL's `?watch=1` watches, anything
 * else plays (`role-switch.tsx` sets and drops it). Apart from the switch so the routes, in the app's first load,
 * do not carry the switch's component.
 */
export type WatchSearch = { watch?: 1 };

/** A route's `validateSearch` for the role: `?watch=1` (or `true`) watches, anything else plays. */
export const watchSearch = (search: Record<string, unknown>): WatchSearch =>
  search.watch === 1 || search.watch === "1" || search.watch === true ? { watch: 1 } : {};
