/** Area: typing rooms (issue 3). Replace the room page; `/rooms` → `/` (spec part 1 §2) must stay. */
import { createRoute, redirect } from "@tanstack/react-router";
import { ComingSoon } from "../features/shell/coming-soon";
import { rootRoute } from "./root";

const roomsIndexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/rooms",
  beforeLoad: () => {
    throw redirect({ to: "/", replace: true });
  },
});

const roomRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/rooms/$roomId",
  component: () => <ComingSoon title="타자 방" />,
});

export const roomsRoutes = [roomsIndexRoute, roomRoute] as const;
