/**
 * Pure rules of the guild pages: which kicks a role is shown (spec §6), route ids (spec §8), the IME Enter rule, the
 * guild game's lanes and who watches.
 */
import { describe, expect, test } from "bun:test";
import type { KeyboardEvent } from "react";
import { isSendingEnter } from "../../ui/answer-box";
import { guildLanes, isWatching } from "./game-lanes";
import { canKick } from "./guild-manage";
import type { GuildGameState, GuildMember, GuildRole } from "./types";
import { parseId } from "./ui";

const member = (id: number, role: GuildRole): GuildMember => ({
  id,
  user_id: id * 10,
  username: `u${id}`,
  role,
  join_date: "2026-01-01T00:00:00.000Z",
});

describe("canKick (spec §6, product-rules Guilds)", () => {
  const admin = member(1, "admin");
  const otherAdmin = member(2, "admin");
  const moderator = member(3, "moderator");
  const plain = member(4, "member");

  test("admins kick moderators and members, never an admin or themselves", () => {
    expect(canKick("admin", admin.id, moderator)).toBe(true);
    expect(canKick("admin", admin.id, plain)).toBe(true);
    expect(canKick("admin", admin.id, otherAdmin)).toBe(false);
    expect(canKick("admin", admin.id, admin)).toBe(false);
  });

  test("moderators kick plain members only; members kick nobody", () => {
    expect(canKick("moderator", moderator.id, plain)).toBe(true);
    expect(canKick("moderator", moderator.id, member(5, "moderator"))).toBe(false);
    expect(canKick("moderator", moderator.id, admin)).toBe(false);
    expect(canKick("member", plain.id, member(6, "member"))).toBe(false);
  });
});

describe("parseId", () => {
  test("positive whole numbers within the server's range only", () => {
    expect(parseId("12")).toBe(12);
    expect(parseId("2147483647")).toBe(2_147_483_647);
    for (const bad of ["abc", "0", "-1", "1.5", "01", "2147483648", "", undefined, "1e3"]) {
      expect(parseId(bad)).toBeNull();
    }
  });
});

describe("isSendingEnter (spec §5: Enter sends unless a composition is in progress)", () => {
  const key = (init: { key: string; shiftKey?: boolean; keyCode?: number; isComposing?: boolean }) =>
    ({
      key: init.key,
      shiftKey: init.shiftKey ?? false,
      keyCode: init.keyCode ?? 13,
      nativeEvent: { isComposing: init.isComposing ?? false },
    }) as unknown as KeyboardEvent<HTMLElement>;

  test("a plain Enter sends", () => expect(isSendingEnter(key({ key: "Enter" }))).toBe(true));
  test("an Enter ending a composition does not", () => {
    expect(isSendingEnter(key({ key: "Enter", isComposing: true }))).toBe(false);
    expect(isSendingEnter(key({ key: "Enter", keyCode: 229 }))).toBe(false);
  });
  test("Shift+Enter and other keys do not", () => {
    expect(isSendingEnter(key({ key: "Enter", shiftKey: true }))).toBe(false);
    expect(isSendingEnter(key({ key: "a" }))).toBe(false);
  });
});

describe("the guild game's lanes (the rooms' RaceLanes) and watchers", () => {
  const game: GuildGameState = {
    guild_id: 1,
    status: "in_progress",
    problem: "가는 말이 고와야 오는 말이 곱다",
    participants: [
      {
        user_id: 1,
        username: "가",
        progress: 0.2778,
        completed: false,
        position: null,
        wpm: 212.4,
        accuracy: null,
        completion_time: null,
      },
      {
        user_id: 2,
        username: "나",
        progress: 1,
        completed: true,
        position: 1,
        wpm: 346,
        accuracy: 100,
        completion_time: 6.25,
      },
    ],
    spectators: [{ user_id: 3, username: "다" }],
    countdown_seconds: 5,
    end_countdown_seconds: 60,
    started_at: "2026-04-01T03:00:05.000Z",
    ends_at: "2026-04-01T03:01:05.000Z",
    finished_at: null,
    end_reason: null,
  };

  test("each participant a lane keyed by user id: progress, live 타/분 (whole), the place once finished", () => {
    expect(guildLanes(game)).toEqual([
      { key: 1, name: "가", progress: 0.2778, wpm: 212, completed: false },
      { key: 2, name: "나", progress: 1, wpm: 346, completed: true, position: 1 },
    ]);
    expect(guildLanes(null)).toEqual([]);
  });

  test("a member watches when the game lists them among its spectators", () => {
    expect(isWatching(game, 3)).toBe(true);
    expect(isWatching(game, 1)).toBe(false);
    expect(isWatching(game, null)).toBe(false);
    expect(isWatching(null, 3)).toBe(false);
  });
});
