/** Room routes hide the footer and the navbar's figures (spec part 1 §2): the typing room needs the space. */
export const isRoomPath = (pathname: string) => /^\/rooms\/[^/]+/.test(pathname);
