import { accountsApi } from "../accounts";
import type { ModuleContext } from "../kernel/define-module";
import { badRequest, conflict, forbidden, notFound, unprocessable } from "../kernel/errors";
import type { InputResult } from "../kernel/game-host";
import { memberPlayerKey } from "../kernel/game-host";
import { type PrivateRoomView, type PrivateSettings, presentPrivate, type RoomAction } from "./private-room";
import {
  checkPrivateName,
  checkPrivateTexts,
  isPrivateSize,
  isPrivateTheme,
  OPEN_PRIVATE_ROOMS_MAX,
  OWN_TEXTS,
  PRIVATE_MSG,
} from "./private-rules";
import { type PrivateRecord, type PrivateTexts, privateRoomsStoreOf } from "./private-store";
import { refusalError } from "./room-host";
import { presentIdleRoom, type RoomView } from "./room-view";
import { DEFAULT_RACE_SETTINGS } from "./sentence-race";
import { ROOM_MESSAGES } from "./settings";

/**
 * Private rooms' service (README "Private rooms"): creating one, finding it by its code, letting someone in, and its
 * owner's actions. Every action is checked against storage (the owner, an open room), written there first, then
 * sent to the room's game wherever it runs (the rooms runtime's `deliver`), which applies it live.
 */

/** A new invitation code: 16 random bytes in base64url (128 bits, URL-safe). */
export const newInviteCode = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64url");

const store = (ctx: ModuleContext) => privateRoomsStoreOf(ctx.database);

/** The settings a private room's game holds, read from storage (when the room is opened, or after a change). */
export async function privateSettingsOf(ctx: ModuleContext, record: PrivateRecord): Promise<PrivateSettings> {
  const roomId = record.room.id;
  const [owner, ownTexts, removed] = await Promise.all([
    accountsApi(ctx).service.findById(record.private.ownerId),
    record.room.theme === OWN_TEXTS ? store(ctx).ownTextsCount(roomId) : 0,
    store(ctx).removedKeys(roomId),
  ]);
  return {
    ownerId: record.private.ownerId,
    ownerName: owner?.username ?? "",
    code: record.private.code,
    autoStart: record.private.autoStart,
    ownTexts,
    removed,
  };
}

/**
 * Whether this player may enter the private room with this code, checked on the process holding the socket before
 * anything reaches the room: an unknown room (or no code) looks like no room at all; a closed room, a code the
 * owner replaced and a player the owner removed each get their own words.
 */
export async function privateEntry(ctx: ModuleContext, roomId: number, code: string | undefined, playerKey: string) {
  const record = await store(ctx).byId(roomId);
  if (!record || code === undefined) throw notFound(ROOM_MESSAGES.notFound, "room_not_found");
  if (record.private.closedAt) throw notFound(PRIVATE_MSG.closed, "room_closed");
  if (record.private.code !== code) throw notFound(PRIVATE_MSG.invalidCode, "invalid_code");
  if (await store(ctx).isRemoved(roomId, playerKey)) throw forbidden(PRIVATE_MSG.removed, "removed");
  return record;
}

/** What the rooms runtime offers the private rooms' routes (none without a socket server: storage only). */
export interface PrivateLive {
  deliver(roomId: number, ownerId: number, action: RoomAction): InputResult | Promise<InputResult>;
  privateView(record: PrivateRecord): RoomView;
}

/** A private room as its page and its owner's list show it: the room (live where it runs here) and its settings. */
export interface PrivateRoomInfo {
  room: RoomView;
  private: PrivateRoomView;
}

export interface CreatePrivateInput {
  name: string;
  max_users: number;
  theme?: string | null;
  texts?: unknown[] | null;
  auto_start?: boolean | null;
}

export interface PrivateSettingsInput {
  theme?: string | null;
  texts?: unknown[] | null;
  auto_start?: boolean | null;
}

/** A member: the caller of an owner's route. */
export interface Caller {
  id: number;
  username: string;
}

const presentIdleRoomOf = (record: PrivateRecord) =>
  presentIdleRoom(record.room, DEFAULT_RACE_SETTINGS.countdownSeconds);

const PLAYER_KEY = /^(u_[1-9][0-9]{0,9}|g_[A-Za-z0-9_-]{1,64})$/;

/** Exactly one of a theme of the product's and the owner's own list, checked (422 with the rule's words). */
function textsOf(input: { theme?: string | null; texts?: unknown[] | null }): PrivateTexts {
  const hasTheme = input.theme !== undefined && input.theme !== null;
  const hasTexts = input.texts !== undefined && input.texts !== null;
  if (hasTheme === hasTexts) throw unprocessable(PRIVATE_MSG.textsOrTheme, "invalid_texts");
  if (hasTheme) {
    if (!isPrivateTheme(input.theme!)) throw unprocessable(PRIVATE_MSG.themeUnknown, "invalid_texts");
    return { theme: input.theme! };
  }
  const check = checkPrivateTexts(input.texts);
  if (!check.ok) throw unprocessable(check.error, "invalid_texts");
  return { texts: check.value };
}

export function privateRoomsService(ctx: ModuleContext, live: () => PrivateLive | undefined) {
  const now = () => new Date(ctx.clock.now());

  async function info(record: PrivateRecord): Promise<PrivateRoomInfo> {
    const settings = await privateSettingsOf(ctx, record);
    const room = live()?.privateView(record) ?? presentIdleRoomOf(record);
    return { room, private: presentPrivate(record.room, settings) };
  }

  /** The open room the caller owns: 404 when there is none (or it closed), 403 for anyone but its owner. */
  async function owned(caller: Caller, roomId: number): Promise<PrivateRecord> {
    const record = await store(ctx).byId(roomId);
    if (!record || record.private.closedAt) throw notFound(PRIVATE_MSG.notFound, "room_not_found");
    if (record.private.ownerId !== caller.id) throw forbidden(PRIVATE_MSG.ownerOnly, "not_owner");
    return record;
  }

  /** A write that found the room changed meanwhile (closed, handed over): why, in the same words. */
  async function refusedWrite(caller: Caller, roomId: number): Promise<never> {
    await owned(caller, roomId);
    throw conflict(PRIVATE_MSG.notFound, "room_not_found");
  }

  /** The owner's action, applied where the room runs; a refusal there becomes the route's answer. */
  async function deliver(roomId: number, ownerId: number, action: RoomAction, required: boolean) {
    const result = await live()?.deliver(roomId, ownerId, action);
    if (!result || result.ok) return;
    // What storage already holds is applied when the room next opens; only a refusal of the action itself answers.
    if (required) throw refusalError(result);
    ctx.log.warn("private room action not applied live", { room_id: roomId, action: action.kind, code: result.code });
  }

  /** The room's new settings, sent to its game (which announces them to everyone inside). */
  async function sendSettings(caller: Caller, roomId: number, textsChanged: boolean) {
    const record = await owned(caller, roomId);
    const settings = await privateSettingsOf(ctx, record);
    const action: RoomAction = { kind: "settings", settings, theme: record.room.theme, textsChanged };
    await deliver(roomId, caller.id, action, false);
    return {
      room: live()?.privateView(record) ?? presentIdleRoomOf(record),
      private: presentPrivate(record.room, settings),
    };
  }

  return {
    async create(caller: Caller, input: CreatePrivateInput): Promise<PrivateRoomInfo> {
      const name = checkPrivateName(input.name);
      if (!name.ok) throw unprocessable(name.error, "invalid_name");
      if (!isPrivateSize(input.max_users)) throw unprocessable(PRIVATE_MSG.sizeRange, "invalid_size");
      const created = await store(ctx).create({
        name: name.value,
        maxUsers: input.max_users,
        ownerId: caller.id,
        code: newInviteCode(),
        autoStart: input.auto_start === true,
        texts: textsOf(input),
        openLimit: OPEN_PRIVATE_ROOMS_MAX,
        at: now(),
      });
      if (created === "too_many") throw conflict(PRIVATE_MSG.tooManyOpen, "too_many_rooms");
      ctx.log.info("private room created", { room_id: created.room.id, owner_id: caller.id });
      return info(created);
    },

    /** The room behind an invitation code: anyone with the link may see it (the socket's join decides entry). */
    async byCode(code: string): Promise<PrivateRoomInfo> {
      const record = await store(ctx).byCode(code);
      if (!record || record.private.closedAt) throw notFound(PRIVATE_MSG.notFound, "room_not_found");
      return info(record);
    },

    async mine(caller: Caller): Promise<PrivateRoomInfo[]> {
      return Promise.all((await store(ctx).openOf(caller.id)).map(info));
    },

    async ownTexts(caller: Caller, roomId: number): Promise<string[]> {
      await owned(caller, roomId);
      return store(ctx).ownTexts(roomId);
    },

    /** Automatic rounds, and the texts (from the next round on). */
    async update(caller: Caller, roomId: number, input: PrivateSettingsInput): Promise<PrivateRoomInfo> {
      await owned(caller, roomId);
      const changesTexts = (input.theme ?? null) !== null || (input.texts ?? null) !== null;
      const texts = changesTexts ? textsOf(input) : null;
      if (texts && !(await store(ctx).setTexts(roomId, caller.id, texts))) await refusedWrite(caller, roomId);
      const auto = input.auto_start;
      if (typeof auto === "boolean" && !(await store(ctx).setAutoStart(roomId, caller.id, auto))) {
        await refusedWrite(caller, roomId);
      }
      return sendSettings(caller, roomId, texts !== null);
    },

    /** "다음 라운드": the countdown starts now. */
    async start(caller: Caller, roomId: number) {
      await owned(caller, roomId);
      await deliver(roomId, caller.id, { kind: "start" }, true);
    },

    /** A new code: the old link stops working, and the players removed so far may come back through the new one. */
    async newCode(caller: Caller, roomId: number): Promise<PrivateRoomInfo> {
      await owned(caller, roomId);
      if (!(await store(ctx).newCode(roomId, caller.id, newInviteCode()))) await refusedWrite(caller, roomId);
      return sendSettings(caller, roomId, false);
    },

    /** Out of the room at once, and kept out of it through this code. */
    async remove(caller: Caller, roomId: number, playerKey: string) {
      await owned(caller, roomId);
      if (!PLAYER_KEY.test(playerKey)) throw unprocessable(PRIVATE_MSG.notHere, "not_here");
      if (playerKey === memberPlayerKey(caller.id)) throw badRequest(PRIVATE_MSG.removeSelf, "remove_self");
      if (!(await store(ctx).remove(roomId, caller.id, playerKey, now()))) await refusedWrite(caller, roomId);
      await deliver(roomId, caller.id, { kind: "remove", playerKey }, false);
    },

    /** To another member in the room (checked where it runs), then stored. */
    async handOver(caller: Caller, roomId: number, userId: number): Promise<PrivateRoomInfo> {
      await owned(caller, roomId);
      await deliver(roomId, caller.id, { kind: "hand_over", userId }, true);
      if (!(await store(ctx).setOwner(roomId, caller.id, userId))) await refusedWrite(caller, roomId);
      return info((await store(ctx).byId(roomId))!);
    },

    /** Everyone out (a round in play ends with its results stored), the room closed for good. */
    async close(caller: Caller, roomId: number) {
      await owned(caller, roomId);
      await deliver(roomId, caller.id, { kind: "close" }, false);
      if (!(await store(ctx).close(roomId, caller.id, now()))) await refusedWrite(caller, roomId);
    },
  };
}
export type PrivateRoomsService = ReturnType<typeof privateRoomsService>;
