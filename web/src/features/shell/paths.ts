/** Room routes hide the footer and the navbar's figures (spec part 1 §2): the typing room needs the space. */
export const isRoomPath = (pathname: string) => /^\/rooms\/[^/]+/.test(pathname);

/** The external chat room linked from the navbar (an env-free constant; the product has no own chat server). */
export const CHAT_ROOM_URL = "https://open.kakao.com";
