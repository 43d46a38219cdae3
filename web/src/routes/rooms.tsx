/** Area: typing rooms (issue 3). `/rooms` → `/` (spec part 1 §2); `/rooms/$roomId` is the room. */
import { createRoute, lazyRouteComponent, redirect } from "@tanstack/react-router";
// Styles load with the shell: Bun does not load the CSS of a lazily imported chunk.
import "../features/rooms/rooms.css";
import { rootRoute } from "./root";

/** The room's page, loaded when a room is first opened. */
const RoomPage = lazyRouteComponent(() => import("../features/rooms/room-page"), "RoomPage");

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
// The router awaits a route component's `preload` before rendering it, so the wrapper never suspends.
RoomRouteComponent.preload = async () => {
  await RoomPage.preload?.();
};

export const roomsRoutes = [roomsIndexRoute, roomRoute] as const;
