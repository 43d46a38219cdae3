/**
 * The anonymous id (spec part 1 §1, §9): a random id in the cookie `anonymous_id`, kept 7 days, sent as the socket
 * handshake's `client_id` so a guest keeps the same guest_NNNN name across reloads.
 */
export const ANONYMOUS_ID_COOKIE = "anonymous_id";
const SEVEN_DAYS_S = 7 * 24 * 60 * 60;
const VALID = /^[A-Za-z0-9_-]{8,64}$/;

export interface CookieJar {
  get(): string;
  set(cookie: string): void;
}

const documentCookies: CookieJar = {
  get: () => globalThis.document?.cookie ?? "",
  set: (cookie) => {
    // biome-ignore lint/suspicious/noDocumentCookie: the handshake needs the id synchronously; CookieStore is async and not in every browser
    if (globalThis.document) globalThis.document.cookie = cookie;
  },
};

export function readCookie(source: string, name: string): string | null {
  for (const part of source.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

export function anonymousId(jar: CookieJar = documentCookies, random = () => crypto.randomUUID()): string {
  const existing = readCookie(jar.get(), ANONYMOUS_ID_COOKIE);
  if (existing && VALID.test(existing)) return existing;
  const id = random().replaceAll("-", "");
  jar.set(`${ANONYMOUS_ID_COOKIE}=${id}; Max-Age=${SEVEN_DAYS_S}; Path=/; SameSite=Lax`);
  return id;
}
