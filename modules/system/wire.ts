import type { Static } from "@sinclair/typebox";
import type { ClientEvent } from "../kernel/socket";
import type { Beat } from "./index";

/** `pong` / `alive`: the client's timestamp echoed (null when it sent none) and the server's time, ISO 8601. */
export interface BeatAnswer {
  timestamp: number | null;
  server_time: string;
}

/** The connection's heartbeats (modules/system/index.ts; the web's socket manager sends them). */
export interface SystemClientEvents {
  ping: ClientEvent<Static<typeof Beat>>;
  keep_alive: ClientEvent<Static<typeof Beat>>;
}

export interface SystemServerEvents {
  pong: (payload: BeatAnswer) => void;
  alive: (payload: BeatAnswer) => void;
}

declare module "../kernel/socket" {
  interface ClientEvents extends SystemClientEvents {}
  interface ServerEvents extends SystemServerEvents {}
}
