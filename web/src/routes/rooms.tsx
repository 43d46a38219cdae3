/** Area: typing rooms (issue 3). `/rooms` → `/` (spec part 1 §2); `/rooms/$roomId` is the room. */
import { createRoute, redirect } from "@tanstack/react-router";
import { RoomPage } from "../features/rooms/room-page";
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
  component: RoomRouteComponent,
});

/** Keyed by the id so moving from one room to another leaves the first and starts the second fresh. */
function RoomRouteComponent() {
  const { roomId } = roomRoute.useParams();
  return <RoomPage key={roomId} roomId={roomId} />;
}

export const roomsRoutes = [roomsIndexRoute, roomRoute] as const;
