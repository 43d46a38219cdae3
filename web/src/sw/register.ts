import { afterFirstLoad } from "../lib/after-first-load";

/**
 * Registers the service worker (service-worker.ts, built to /sw.js) in production builds once the first load is
 * over (lib/after-first-load.ts): its install downloads the whole app (≈ 70 files) for offline use, which must not
 * share a phone's network and processor with the page being opened (web/README.md "Offline"). A development build
 * has no /sw.js to register, and a worker would serve it yesterday's files.
 */
export function registerServiceWorker() {
  if (process.env.NODE_ENV !== "production" || !("serviceWorker" in navigator)) return;
  afterFirstLoad(() => {
    navigator.serviceWorker.register("/sw.js").catch((error: unknown) => console.warn("service worker", error));
  });
}
