/** Area: home (issue 3, rooms): the live room list. */
import { createRoute } from "@tanstack/react-router";
import { HomePage } from "../features/rooms/home-page";
import { rootRoute } from "./root";

const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  component: HomePage,
});

export const homeRoutes = [homeRoute] as const;
