import "./styles/app.css";
import { RouterProvider } from "@tanstack/react-router";
import { Provider, useAtomValue } from "jotai";
import { StrictMode, useSyncExternalStore } from "react";
import { createRoot } from "react-dom/client";
import { syncUnsentPractice } from "./features/practice/unsent-sync";
import { session, sessionStatusAtom, wireSession } from "./features/session/atoms";
import { Splash } from "./features/shell/splash";
import { loadDeferredStyles, stylesReady } from "./lib/deferred-styles";
import { setNavigator, setRouteRevalidator } from "./lib/navigation";
import { routeOfPath, socketManager } from "./lib/socket";
import { appStore } from "./lib/store";
import { router } from "./router";
import { registerServiceWorker } from "./sw/register";

/**
 * The lazy page of the address being opened (routes/*: `lazyRouteComponent`) starts downloading as the app starts,
 * while the session resolves, instead of once the router has matched it.
 */
function preloadOpenedPage() {
  const [routes] = router.getMatchedRoutes(window.location.pathname);
  for (const route of routes) {
    void (route.options.component as { preload?: () => Promise<void> } | undefined)?.preload?.();
  }
}

loadDeferredStyles();
preloadOpenedPage();
setNavigator((to, state) => {
  void router.navigate({ to, state } as never);
});
setRouteRevalidator(() => void router.invalidate());
wireSession();

/**
 * The router mounts only once the session is known, so route guards and pages see the final state, and once the
 * app's stylesheets are applied, so no page is drawn unstyled.
 */
function App() {
  const status = useAtomValue(sessionStatusAtom);
  const styled = useSyncExternalStore(stylesReady.subscribe, stylesReady.get);
  if (status === "loading" || !styled) return <Splash />;
  return <RouterProvider router={router} context={{ store: appStore }} />;
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <Provider store={appStore}>
      <App />
    </Provider>
  </StrictMode>,
);

// A page opened at a room connects for that room at once (room affinity), instead of reconnecting once it mounts.
socketManager.route(routeOfPath(window.location.pathname));
void session.start().finally(() => socketManager.start());
// Offline: the app opens from the service worker, and practice results finished offline go out once it is back.
registerServiceWorker();
syncUnsentPractice();
