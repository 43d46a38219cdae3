/**
 * Challenge links (`/duel?challenge=u_12`), apart from the page's other code: the route reads them on every load of
 * the app, so this is all of the duel that goes into the first load.
 */

/** A sid the page may challenge from a link: a member's. */
export const isMemberSid = (sid: unknown): sid is string => typeof sid === "string" && /^u_[0-9]{1,15}$/.test(sid);

/** The address that opens /duel with a challenge to this member prepared (the menu's "도전 링크 복사"). */
export const challengeLink = (origin: string, sid: string) => `${origin}/duel?challenge=${encodeURIComponent(sid)}`;
