import { describe, expect, test } from "bun:test";
import type { GameOwnerLease } from "./game-host";
import { LocalGames } from "./local-games";
import type { GameOpener } from "./ownership";
import { player, recordingLogger, type ToyHost, toyOpener, toyWorld } from "./test-support";

/** The one-process game directory (README "The game directory"): the toy mode, its opener, no Redis. */
function directory(opener?: (world: ReturnType<typeof toyWorld>) => GameOpener) {
  const world = toyWorld();
  const opens: GameOwnerLease[] = [];
  const base = opener ? opener(world) : toyOpener(world);
  const counting: GameOpener = {
    storedEpoch: base.storedEpoch,
    open: (sourceId, owner) => {
      opens.push(owner);
      return base.open(sourceId, owner);
    },
  };
  const log = recordingLogger();
  const games = new LocalGames({ games: { sentence_race: counting }, log });
  return { world, games, opens, log };
}

const join = (name: string, socketId: string) => ({
  type: "join" as const,
  socketId,
  player: player(name),
  data: undefined,
});

describe("LocalGames", () => {
  test("the first input that needs a game opens it once; input meanwhile waits; then answers come without a promise", async () => {
    const { games, opens } = directory();
    const [a, b] = await Promise.all([
      games.input("sentence_race", "1", join("가", "s1")),
      games.input("sentence_race", "1", join("나", "s2")),
    ]);
    expect(a).toEqual({ ok: true });
    expect(b).toEqual({ ok: true });
    expect(opens).toHaveLength(1);
    // One above the source's stored epoch (none stored: 1), as a lease's would be.
    expect(opens[0].epoch).toBe(1);
    expect(opens[0].holds()).toBe(true);
    const host = games.localGame("sentence_race", "1") as unknown as ToyHost;
    expect(host.size).toBe(2);
    const answer = games.input("sentence_race", "1", { type: "leave", playerId: player("나").id, socketId: "s2" });
    expect(answer).toEqual({ ok: true });
    expect(host.size).toBe(1);
  });

  test("a leave, drop or update of a game that runs nowhere opens nothing; close() forgets the game", async () => {
    const { games, opens } = directory();
    expect(games.input("sentence_race", "2", { type: "leave", playerId: "p:가", socketId: "s1" })).toEqual({
      ok: true,
    });
    expect(games.input("sentence_race", "2", { type: "drop", playerId: "p:가", socketId: "s1" })).toEqual({
      ok: true,
    });
    expect(games.input("sentence_race", "2", { type: "update", player: player("가") })).toEqual({ ok: true });
    expect(opens).toHaveLength(0);
    expect(games.localGame("sentence_race", "2")).toBeNull();
    await games.input("sentence_race", "2", join("가", "s1"));
    const host = games.localGame("sentence_race", "2");
    host?.giveUp();
    opens[0].close();
    expect(games.localGame("sentence_race", "2")).toBeNull();
    // The next input that needs it opens it anew (the opener decides whether it may).
    await games.input("sentence_race", "2", join("가", "s1"));
    expect(opens).toHaveLength(2);
  });

  test("an opener that throws: the input is refused, the error logged, and the next input tries again", async () => {
    let fail = true;
    const { games, log } = directory((world) => ({
      open: async (sourceId, owner) => {
        if (fail) throw new Error("no such game");
        return toyOpener(world).open(sourceId, owner);
      },
    }));
    expect(await games.input("sentence_race", "3", join("가", "s1"))).toMatchObject({ ok: false, code: "internal" });
    expect(log.lines.some((line) => line.message === "opening a game failed")).toBe(true);
    fail = false;
    expect(await games.input("sentence_race", "3", join("가", "s1"))).toEqual({ ok: true });
  });

  test("stop finishes the rounds of the games it runs and refuses to open more", async () => {
    const { games } = directory();
    await games.input("sentence_race", "4", join("가", "s1"));
    const host = games.localGame("sentence_race", "4") as unknown as ToyHost;
    await games.stop();
    expect(host.running).toBe(false);
    expect(await games.input("sentence_race", "5", join("가", "s1"))).toMatchObject({ ok: false });
  });
});
