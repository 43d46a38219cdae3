import { createRootRouteWithContext } from "@tanstack/react-router";
import "../features/moderation/moderation.css";
import { AppShell } from "../features/shell/app-shell";
import { NotFoundPage } from "../features/shell/not-found";
import type { appStore } from "../lib/store";

export interface RouterContext {
  /** The app's jotai store: `beforeLoad` guards read the session from it (see ./guards.ts). */
  store: typeof appStore;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: AppShell,
  notFoundComponent: NotFoundPage,
});
