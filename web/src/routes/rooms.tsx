/**
 * Area: typing rooms (issue 3). `/rooms` → `/` (spec part 1 §2); `/rooms/$roomId` is the room; `/r/$code` a private
 * room's invitation link (issue 27).
 */
import { createRoute, lazyRouteComponent, redirect } from "@tanstack/react-router";
// Styles load with the shell: Bun does not load the CSS of a lazily imported chunk.
import "../features/rooms/rooms.css";
import { watchSearch } from "../ui/watch-search";
import { rootRoute } from "./root";

/** The room's page, loaded when a room is first opened. */
const RoomPage = lazyRouteComponent(() => import("../features/rooms/room-page"), "RoomPage");
/** A private room's link (`/r/{code}`), loaded when one is first opened. */
const PrivateRoomPage = lazyRouteComponent(() => import("../features/rooms/private-room-page"), "PrivateRoomPage");

const roomsIndexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/rooms",
  beforeLoad: () => {
    throw redirect({ to: "/", replace: true });
  },
});

/** `?watch=1`: enter as a spectator (the home list's and the room's 관전하기). */
const roomRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/rooms/$roomId",
  validateSearch: watchSearch,
  component: RoomRouteComponent,
});

/** A private room's invitation link: anyone may open it (guests too); `?watch=1` watches. */
const privateRoomRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/r/$code",
  validateSearch: watchSearch,
  component: PrivateRoomRouteComponent,
});

/** Keyed by the id so moving from one room to another leaves the first and starts the second fresh. */
function RoomRouteComponent() {
  const { roomId } = roomRoute.useParams();
  const { watch } = roomRoute.useSearch();
  return <RoomPage key={roomId} roomId={roomId} spectate={watch === 1} />;
}
// The router awaits a route component's `preload` before rendering it, so the wrapper never suspends.
RoomRouteComponent.preload = async () => {
  await RoomPage.preload?.();
};

/** Not keyed by the code: a new code the owner makes while the player is inside is the same room (the page says so). */
function PrivateRoomRouteComponent() {
  const { code } = privateRoomRoute.useParams();
  const { watch } = privateRoomRoute.useSearch();
  return <PrivateRoomPage code={code} spectate={watch === 1} />;
}
PrivateRoomRouteComponent.preload = async () => {
  await PrivateRoomPage.preload?.();
};

export const roomsRoutes = [roomsIndexRoute, roomRoute, privateRoomRoute] as const;
