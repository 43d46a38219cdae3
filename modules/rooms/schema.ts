import { sqliteKit } from "../../db/schema-kit";
import { defineRoomsTables } from "./tables";

// SQLite's tables, for drizzle-kit (drizzle.config.ts) and the stores (see tables.ts).
export const { rooms, sentences, privateRooms, removedPlayers } = sqliteKit.once(defineRoomsTables);

export type RoomRow = typeof rooms.$inferSelect;
export type SentenceRow = typeof sentences.$inferSelect;
export type PrivateRoomRow = typeof privateRooms.$inferSelect;
