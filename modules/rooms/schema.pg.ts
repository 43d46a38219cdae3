import { pgKit } from "../../db/schema-kit";
import { defineRoomsTables } from "./tables";

// PostgreSQL's tables, for drizzle-kit (drizzle.pg.config.ts) and the stores (see tables.ts).
export const { rooms, sentences, privateRooms, removedPlayers } = pgKit.once(defineRoomsTables);
