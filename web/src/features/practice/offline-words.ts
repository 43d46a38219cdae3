/**
 * The whole word list for 맞춤 연습 offline (web/README.md "Offline"). The worker keeps a sample of 100 words at
 * install (every visitor's worker, practising or not); once a player opens /practice online, the page puts the
 * whole list (`/api/practice/word-list`, ≈ 19 kB gzip) into the worker's cache in the sample's place, so that
 * offline the worker answers `/api/practice/words` with every word and the page draws the weak jamo's words from
 * all of them (`pickFromSample`). The worker's code is untouched: the list is the same entry of its cache, bigger.
 * A new version of the worker starts again from the sample until the next visit online.
 */
import { useEffect } from "react";
import { CACHE_PREFIX, OFFLINE_CONTENT } from "../../sw/strategy";

const WORD_LIST = "/api/practice/word-list";
/** The cache entry the worker answers `/api/practice/words` from offline (it ignores the query there). */
const OFFLINE_WORDS = OFFLINE_CONTENT.find((url) => url.startsWith("/api/practice/words"))!;
/** Marks the entry as the whole list, so each version's cache is filled once. */
const WHOLE_LIST = "x-practice-word-list";

/** Fills each of the worker's caches that still holds the sample (nothing without a worker or a connection). */
export async function keepWholeWordListOffline(): Promise<void> {
  if (!("caches" in window) || !navigator.serviceWorker?.controller || !navigator.onLine) return;
  const names = (await caches.keys()).filter((name) => name.startsWith(CACHE_PREFIX));
  const pending = [];
  for (const name of names) {
    const cache = await caches.open(name);
    const kept = await cache.match(OFFLINE_WORDS, { ignoreVary: true });
    if (!kept?.headers.has(WHOLE_LIST)) pending.push(cache);
  }
  if (pending.length === 0) return;
  const response = await fetch(WORD_LIST, { cache: "no-cache" });
  if (!response.ok) return;
  // Fresh headers: the body is already decoded, the server's content-encoding would no longer be true of it.
  const headers = { "content-type": "application/json; charset=utf-8", [WHOLE_LIST]: "1" };
  const body = await response.arrayBuffer();
  await Promise.all(pending.map((cache) => cache.put(OFFLINE_WORDS, new Response(body, { headers }))));
}

/** Keeps the list whenever the page is online under a worker: at once, when the connection returns, when one takes over. */
export function useWholeWordListOffline(online: boolean) {
  useEffect(() => {
    if (!online) return;
    const keep = () => void keepWholeWordListOffline().catch(() => {});
    keep();
    navigator.serviceWorker?.addEventListener("controllerchange", keep);
    return () => navigator.serviceWorker?.removeEventListener("controllerchange", keep);
  }, [online]);
}
