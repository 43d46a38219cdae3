import "./styles/app.css";
import { RouterProvider } from "@tanstack/react-router";
import { Provider, useAtomValue } from "jotai";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { session, sessionStatusAtom, wireSession } from "./features/session/atoms";
import { Splash } from "./features/shell/splash";
import { setNavigator, setRouteRevalidator } from "./lib/navigation";
import { socketManager } from "./lib/socket";
import { appStore } from "./lib/store";
import { router } from "./router";

setNavigator((to, state) => {
  void router.navigate({ to, state } as never);
});
setRouteRevalidator(() => void router.invalidate());
wireSession();

/** The router mounts only once the session is known, so route guards and pages see the final state. */
function App() {
  const status = useAtomValue(sessionStatusAtom);
  if (status === "loading") return <Splash />;
  return <RouterProvider router={router} context={{ store: appStore }} />;
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <Provider store={appStore}>
      <App />
    </Provider>
  </StrictMode>,
);

void session.start().finally(() => socketManager.start());
