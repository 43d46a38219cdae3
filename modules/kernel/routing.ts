/**
 * Room affinity (README "Several processes"), shared by the server and the web client. A proxy in front of several
 * processes may hash a socket by a query parameter of its handshake URL, so that a room's players all land on one
 * process (the room's broadcasts then stay local). The server announces that such a proxy is there; without the
 * announcement the client never reconnects for routing (each reconnect costs a player 2–4 round trips).
 */

/** Emitted by the server on every new connection when ROOM_AFFINITY is on (with REDIS_URL): `RoutingAnnouncement`. */
export const ROUTING_EVENT = "server:routing";

/** The handshake query parameters the proxy routes by: a typing room's id, a guild's id (its guild room). */
export const ROUTE_PARAMS = ["room", "guild"] as const;
export type RouteParam = (typeof ROUTE_PARAMS)[number];

/** The payload of `server:routing`. */
export interface RoutingAnnouncement {
  params: readonly string[];
}
