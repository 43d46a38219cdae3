/**
 * The stylesheets the app loads itself (web/README.md "Build and serving"). index.html draws the splash with its
 * inline first-paint CSS and names the rest in `<meta name="deferred-styles">` (the font faces, then app.css) and
 * the fonts to preload in `<meta name="deferred-fonts">` (the UI subset of each weight: scripts/build-web.ts). Linked from the HTML they
 * would hold the first paint for two requests and start the font slices before the app's own script, sharing a
 * slow phone's bandwidth with it; requested here, as the entry script starts, they arrive while the page's code
 * is still loading, and the app shows no page before they are applied (`stylesReady`), so nothing is drawn
 * unstyled.
 */

const listeners = new Set<() => void>();
let ready = true;

/** Links every deferred stylesheet and preloads the named fonts, once; a page that names none is ready at once. */
export function loadDeferredStyles(doc: Document = document) {
  const named = (name: string) =>
    (doc.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? "").split(" ").filter(Boolean);
  const styles = named("deferred-styles");
  for (const font of named("deferred-fonts")) {
    const preload = Object.assign(doc.createElement("link"), { rel: "preload", as: "font", type: "font/woff2" });
    preload.crossOrigin = "anonymous";
    preload.href = font;
    doc.head.append(preload);
  }
  let pending = styles.length;
  ready = pending === 0;
  for (const href of styles) {
    const link = Object.assign(doc.createElement("link"), { rel: "stylesheet", href });
    // A stylesheet that fails must not keep the app behind the splash: the page shows, less styled.
    const settle = () => {
      if (--pending > 0) return;
      ready = true;
      for (const listener of listeners) listener();
    };
    link.addEventListener("load", settle, { once: true });
    link.addEventListener("error", settle, { once: true });
    doc.head.append(link);
  }
}

/** For `useSyncExternalStore`: whether every deferred stylesheet has loaded (or failed). */
export const stylesReady = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: () => ready,
};
