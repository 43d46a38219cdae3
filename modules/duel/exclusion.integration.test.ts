import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer, type TestUser } from "../../apps/server/testing";
import { duelStore } from "./api";
import { duelRecord } from "./test-support";

/**
 * The duel rankings leave out a member excluded from the rankings (moderation's `exclude`), by the rankings' one
 * rule (rankings README "Exclusions"), and take them back when the exclusion is lifted. Every module, real HTTP,
 * the run's engine (TEST_DATABASE=postgres for PostgreSQL).
 */
let server: TestServer;
let cheat: TestUser;
let rival: TestUser;
let reporter: TestUser;
let admin: TestUser;

const KINDS = ["total-games", "win-rate", "win-streak", "recent-activity"] as const;
const ranked = async (kind: (typeof KINDS)[number], limit = 100) => {
  const minGames = kind === "win-rate" ? "&min_games=1" : "";
  const res = await server.api("GET", `/api/rankings/duel/${kind}?limit=${limit}${minGames}`);
  expect(res.status).toBe(200);
  return (res.body as { user_id: number }[]).map((entry) => entry.user_id);
};

let sessions = 0;
/** A stored, rated duel that `red` won, ended now. */
const redWins = (red: number, blue: number) =>
  duelStore(server.ctx).recordDuel(duelRecord(`exclusion-${++sessions}`, red, blue));

beforeAll(async () => {
  server = await startTestServer();
  cheat = await server.createUser("대결반칙");
  rival = await server.createUser("대결상대");
  reporter = await server.createUser("대결신고");
  admin = await server.createUser("대결운영", { admin: true });
  // Two wins to one: ahead of the rival in every duel ranking.
  await redWins(cheat.id, rival.id);
  await redWins(cheat.id, rival.id);
  await redWins(rival.id, cheat.id);
});
afterAll(() => server.stop());

describe("an exclusion from the rankings", () => {
  test("takes the member out of every duel ranking; lifting it puts them back where their duels place them", async () => {
    for (const kind of KINDS) expect((await ranked(kind)).slice(0, 2)).toEqual([cheat.id, rival.id]);

    const report = await server.api("POST", "/api/reports", {
      token: reporter.token,
      body: { kind: "player", user_id: cheat.id, reason: "부정행위" },
    });
    expect(report.status).toBe(201);
    const resolved = await server.api("POST", `/api/moderation/reports/${report.body.id}/resolve`, {
      token: admin.token,
      body: { action: "exclude" },
    });
    expect(resolved.status).toBe(200);
    for (const kind of KINDS) {
      expect(await ranked(kind)).not.toContain(cheat.id);
      // The page stays full whoever is left out: the first place goes to the next member.
      expect(await ranked(kind, 1)).toEqual([rival.id]);
    }
    // The duels themselves are kept: the member's own figures still count them.
    const own = await server.api("GET", "/api/duel/stats/me", { token: cheat.token });
    expect(own.body).toMatchObject({ wins: 2, losses: 1, total_games: 3 });

    const [exclusion] = resolved.body.restrictions;
    expect(exclusion.kind).toBe("exclude");
    const lifted = await server.api("POST", `/api/moderation/restrictions/${exclusion.id}/lift`, {
      token: admin.token,
    });
    expect(lifted.status).toBe(200);
    for (const kind of KINDS) expect((await ranked(kind)).slice(0, 2)).toEqual([cheat.id, rival.id]);
  });
});
