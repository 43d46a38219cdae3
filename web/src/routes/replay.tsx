/**
 * Area: replays (issue 26): a result played back at /replay/{key}. The page lives in features/replays and loads
 * when first visited.
 */
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import "../features/replays/replays.css";
import { rootRoute } from "./root";

const replayRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/replay/$key",
  component: lazyRouteComponent(() => import("../features/replays/replay-page"), "ReplayPage"),
});

export const replayRoutes = [replayRoute] as const;
