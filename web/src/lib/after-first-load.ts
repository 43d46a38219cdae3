/**
 * Work that must not compete with a page's first load (the service worker's install, code for notices shown only
 * when something goes wrong): it runs after the `load` event, a settling time for what a page does right after it
 * (its route's chunks, the socket's join and the render it answers with), then at the first idle moment of the
 * main thread. On a phone the first load has the network and the processor to itself.
 */

/** After `load`: how long a page's own first work (the socket's join, the first render it answers) may take. */
export const SETTLE_AFTER_LOAD_MS = 3_000;
/** The longest wait for an idle main thread once settled (a page that animates all the time never idles). */
const IDLE_TIMEOUT_MS = 5_000;

export function afterFirstLoad(task: () => void) {
  const whenIdle = () => {
    if ("requestIdleCallback" in window) window.requestIdleCallback(() => task(), { timeout: IDLE_TIMEOUT_MS });
    else setTimeout(task, 0);
  };
  const settle = () => setTimeout(whenIdle, SETTLE_AFTER_LOAD_MS);
  if (document.readyState === "complete") settle();
  else window.addEventListener("load", settle, { once: true });
}
