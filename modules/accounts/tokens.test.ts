import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestContext } from "../../db/testing";
import { FakeClock } from "../kernel/clock";
import { accountsApi } from "./api";
import { accountsStore } from "./store";
import { createAccessTokens, REFRESH_TTL_REMEMBER_MS, REFRESH_TTL_SESSION_MS } from "./tokens";

let env: Awaited<ReturnType<typeof createTestContext>>;
let clock: FakeClock;
let userId: number;

beforeEach(async () => {
  clock = new FakeClock(Date.UTC(2026, 5, 1));
  env = await createTestContext({ clock });
  userId = (
    await accountsApi(env.ctx).service.register({ username: "토큰", email: "t@x.com", password: "s3cret-pass" })
  ).id;
});
afterEach(() => env.cleanup());

const store = () => accountsStore(env.ctx.database);
const issue = (rememberMe: boolean) => store().issueRefreshToken(userId, rememberMe, clock.now());
const rotate = (token: string) => store().rotateRefreshToken(token, clock.now());
const rows = () => store().refreshTokensOf(userId);

describe("refresh token rotation", () => {
  test("stores only a hash of the token", async () => {
    const token = await issue(false);
    const stored = await rows();
    expect(stored).toHaveLength(1);
    expect(stored[0].tokenHash).not.toContain(token);
    expect(stored[0].tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  test("rotation gives a new token of the same family and retires the old one", async () => {
    const first = await issue(true);
    const outcome = await rotate(first);
    expect(outcome.kind).toBe("rotated");
    if (outcome.kind !== "rotated") return;
    expect(outcome.token).not.toBe(first);
    expect(new Set((await rows()).map((r) => r.familyId)).size).toBe(1);
    expect((await rotate(outcome.token)).kind).toBe("rotated");
  });

  test("replaying a rotated token revokes the whole family, including the newest token", async () => {
    const first = await issue(false);
    const second = await rotate(first);
    expect((await rotate(first)).kind).toBe("reused");
    if (second.kind !== "rotated") throw new Error("expected rotation");
    expect(await rotate(second.token)).toMatchObject({ kind: "revoked", reason: "reuse_detected" });
    expect((await rows()).filter((r) => !r.revokedAt)).toHaveLength(0);
  });

  test("two refreshes of one token at once: one rotates, the other is a replay and the family is revoked", async () => {
    // Connections open first (PostgreSQL's pool opens them on demand): the two refreshes really run side by side.
    await Promise.all(Array.from({ length: 4 }, () => rotate("warm-up")));
    for (let round = 0; round < 5; round++) {
      const first = await issue(false);
      const outcomes = await Promise.all([rotate(first), rotate(first)]);
      expect(outcomes.map((o) => o.kind).sort()).toEqual(["reused", "rotated"]);
      const rotated = outcomes.find((o) => o.kind === "rotated");
      if (rotated?.kind !== "rotated") throw new Error("expected rotation");
      expect(await rotate(rotated.token)).toMatchObject({ kind: "revoked", reason: "reuse_detected" });
    }
  });

  test("another login's family survives a replay in this one", async () => {
    const a = await issue(false);
    const b = await issue(false);
    await rotate(a);
    await rotate(a);
    expect((await rotate(b)).kind).toBe("rotated");
  });

  test("remember-me lasts 30 days, otherwise 24 hours", async () => {
    const remembered = await issue(true);
    const session = await issue(false);
    clock.advance(REFRESH_TTL_SESSION_MS + 1000);
    expect((await rotate(session)).kind).toBe("invalid");
    const next = await rotate(remembered);
    expect(next.kind).toBe("rotated");
    const row = (await rows()).filter((r) => r.rememberMe).at(-1)!;
    expect(row.expiresAt.getTime() - clock.now()).toBe(REFRESH_TTL_REMEMBER_MS);
  });

  test("an unknown token is invalid", async () => {
    expect((await rotate("nope")).kind).toBe("invalid");
  });
});

describe("access tokens", () => {
  test("expire after 15 minutes", async () => {
    const tokens = createAccessTokens("x".repeat(40), () => clock.now());
    const token = await tokens.sign(7, "full");
    expect(await tokens.verify(token)).toEqual({ userId: 7, scope: "full", issuedAtMs: clock.now() });
    clock.advance(15 * 60 * 1000 + 1000);
    await expect(tokens.verify(token)).rejects.toMatchObject({ status: 401 });
  });

  test("a token signed with another secret is refused", async () => {
    const mine = createAccessTokens("x".repeat(40), () => clock.now());
    const theirs = createAccessTokens("y".repeat(40), () => clock.now());
    await expect(mine.verify(await theirs.sign(1, "full"))).rejects.toMatchObject({ status: 401 });
  });
});
