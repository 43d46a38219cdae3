import { invitePath, OWN_TEXTS, themeLabel } from "./private-rules";
import type { RoomRow } from "./schema";

/**
 * A private room as its live game holds it (README "Private rooms"): who owns it, its current code, whether rounds
 * start by themselves, how many own sentences it plays and whom the owner removed. Built from storage when the room
 * is opened, and replaced by the owner's actions (which write storage first).
 */
export interface PrivateSettings {
  ownerId: number;
  ownerName: string;
  code: string;
  autoStart: boolean;
  /** How many own sentences it plays (0 when it plays a theme of the product's). */
  ownTexts: number;
  /** Public keys of the players the owner removed (void codes for them until the next new code). */
  removed: string[];
}

/**
 * An owner's action, sent by the HTTP routes through the game directory to the process running the room (plain
 * JSON, like every input). The routes checked in storage that the owner asked.
 */
export type RoomAction =
  | { kind: "settings"; settings: PrivateSettings; theme: string; textsChanged: boolean }
  | { kind: "start" }
  | { kind: "remove"; playerKey: string }
  | { kind: "hand_over"; userId: number }
  | { kind: "close" };

/** The command an owner's action travels as (a player's commands are chat lines and answers, built by the server). */
export interface RoomActionCommand {
  roomAction: RoomAction;
}

export const isRoomAction = (command: unknown): command is RoomActionCommand =>
  typeof command === "object" && command !== null && "roomAction" in command;

/** What everyone in a private room (and anyone with its link) sees of it: `room:private_update`, `private`. */
export interface PrivateRoomView {
  room_id: number;
  code: string;
  /** The invitation link's path (`/r/{code}`): anyone may open it, guests too, while the room has a place. */
  invite_path: string;
  owner: { id: number; username: string };
  auto_start: boolean;
  texts: { kind: "theme"; theme: string; label: string } | { kind: "own"; count: number };
}

export function presentPrivate(room: Pick<RoomRow, "id" | "theme">, settings: PrivateSettings): PrivateRoomView {
  return {
    room_id: room.id,
    code: settings.code,
    invite_path: invitePath(settings.code),
    owner: { id: settings.ownerId, username: settings.ownerName },
    auto_start: settings.autoStart,
    texts:
      room.theme === OWN_TEXTS
        ? { kind: "own", count: settings.ownTexts }
        : { kind: "theme", theme: room.theme, label: themeLabel(room.theme) },
  };
}
