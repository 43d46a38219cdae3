/**
 * Registers the service worker (service-worker.ts, built to /sw.js) in production builds, once the page has loaded:
 * its first download (the app's files, for offline use) never competes with the page's own. A development build
 * has no /sw.js to register, and a worker would serve it yesterday's files.
 */
export function registerServiceWorker() {
  if (process.env.NODE_ENV !== "production" || !("serviceWorker" in navigator)) return;
  const register = () =>
    navigator.serviceWorker.register("/sw.js").catch((error: unknown) => console.warn("service worker", error));
  if (document.readyState === "complete") void register();
  else window.addEventListener("load", () => void register(), { once: true });
}
