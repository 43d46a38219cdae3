import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import type { SocketIdentity } from "../socket";
import { memberPlayerId, memberPlayerKey, playerIdOf, playerKeyOf } from "./players";

const member: SocketIdentity = { kind: "user", userId: 42, username: "하늘", isAdmin: false, clientId: "c-member" };
const guest: SocketIdentity = { kind: "guest", clientId: "c-guest-secret", nickname: "손님" };

describe("player ids: the formats on the wire and in the tables stay as they are", () => {
  test("a member: game id u:<id>, public key u_<id>, the same with or without a socket", () => {
    expect([playerIdOf(member), playerKeyOf(member)]).toEqual(["u:42", "u_42"]);
    expect([memberPlayerId(42), memberPlayerKey(42)]).toEqual(["u:42", "u_42"]);
  });

  test("a guest: game id by client id, public key a 12-digit hash that does not show the client id", () => {
    const hash = createHash("sha256").update("c-guest-secret").digest("hex").slice(0, 12);
    expect(playerIdOf(guest)).toBe("g:c-guest-secret");
    expect(playerKeyOf(guest)).toBe(`g_${hash}`);
    expect(playerKeyOf(guest)).not.toContain("c-guest-secret");
  });
});
