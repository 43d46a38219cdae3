/** Area: home (issue 3, rooms): the live room list, loaded with the route (a lazy route component). */
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
// Styles load with the shell: Bun does not load the CSS of a lazily imported chunk.
import "../features/rooms/rooms.css";
import { rootRoute } from "./root";

const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  component: lazyRouteComponent(() => import("../features/rooms/home-page"), "HomePage"),
});

export const homeRoutes = [homeRoute] as const;
