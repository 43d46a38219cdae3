import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createTestContext } from "../../db/testing";
import { FakeClock } from "../kernel/clock";
import { accountsApi } from "./api";
import { refreshTokens } from "./schema";
import {
  createAccessTokens,
  issueRefreshToken,
  REFRESH_TTL_REMEMBER_MS,
  REFRESH_TTL_SESSION_MS,
  rotateRefreshToken,
} from "./tokens";

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

const tx = <T>(fn: (db: typeof env.ctx.db) => T) => env.ctx.db.transaction((t) => fn(t as never));

describe("refresh token rotation", () => {
  test("stores only a hash of the token", () => {
    const token = tx((db) => issueRefreshToken(db, userId, false, clock.now()));
    const rows = env.ctx.db.select().from(refreshTokens).all();
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).not.toContain(token);
    expect(rows[0].tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  test("rotation gives a new token of the same family and retires the old one", () => {
    const first = tx((db) => issueRefreshToken(db, userId, true, clock.now()));
    const outcome = tx((db) => rotateRefreshToken(db, first, clock.now()));
    expect(outcome.kind).toBe("rotated");
    if (outcome.kind !== "rotated") return;
    expect(outcome.token).not.toBe(first);
    const families = new Set(
      env.ctx.db
        .select()
        .from(refreshTokens)
        .all()
        .map((r) => r.familyId),
    );
    expect(families.size).toBe(1);
    expect(tx((db) => rotateRefreshToken(db, outcome.token, clock.now())).kind).toBe("rotated");
  });

  test("replaying a rotated token revokes the whole family, including the newest token", () => {
    const first = tx((db) => issueRefreshToken(db, userId, false, clock.now()));
    const second = tx((db) => rotateRefreshToken(db, first, clock.now()));
    expect(tx((db) => rotateRefreshToken(db, first, clock.now())).kind).toBe("reused");
    if (second.kind !== "rotated") throw new Error("expected rotation");
    expect(tx((db) => rotateRefreshToken(db, second.token, clock.now())).kind).toBe("invalid");
    const live = env.ctx.db
      .select()
      .from(refreshTokens)
      .all()
      .filter((r) => !r.revokedAt);
    expect(live).toHaveLength(0);
  });

  test("another login's family survives a replay in this one", () => {
    const a = tx((db) => issueRefreshToken(db, userId, false, clock.now()));
    const b = tx((db) => issueRefreshToken(db, userId, false, clock.now()));
    tx((db) => rotateRefreshToken(db, a, clock.now()));
    tx((db) => rotateRefreshToken(db, a, clock.now()));
    expect(tx((db) => rotateRefreshToken(db, b, clock.now())).kind).toBe("rotated");
  });

  test("remember-me lasts 30 days, otherwise 24 hours", () => {
    const remembered = tx((db) => issueRefreshToken(db, userId, true, clock.now()));
    const session = tx((db) => issueRefreshToken(db, userId, false, clock.now()));
    clock.advance(REFRESH_TTL_SESSION_MS + 1000);
    expect(tx((db) => rotateRefreshToken(db, session, clock.now())).kind).toBe("invalid");
    const next = tx((db) => rotateRefreshToken(db, remembered, clock.now()));
    expect(next.kind).toBe("rotated");
    const row = env.ctx.db.select().from(refreshTokens).where(eq(refreshTokens.rememberMe, true)).all().at(-1)!;
    expect(row.expiresAt.getTime() - clock.now()).toBe(REFRESH_TTL_REMEMBER_MS);
  });

  test("an unknown token is invalid", () => {
    expect(tx((db) => rotateRefreshToken(db, "nope", clock.now())).kind).toBe("invalid");
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
