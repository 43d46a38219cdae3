import type { TestServer } from "../../apps/server/testing";
import { applyGameRewards } from "../accounts";
import type { ReplayInput, ResultInput } from "../games";
import { recordResult } from "../games";
import type { ModuleContext } from "../kernel/define-module";
import { rankingsSettled } from ".";

/** Test helpers: results recorded through games' public API, rewards through accounts'. */

/** `YYYY-MM-DD HH:mm:ss` in Seoul time → epoch ms. */
export const kst = (text: string) => Date.parse(`${text.replace(" ", "T")}+09:00`);

let rounds = 0;

/** One result of a new one-player race game (its own round), accepted at `at`; waits for the rankings update. */
export async function playResult(
  ctx: ModuleContext,
  player: { userId: number | null; key: string; nickname: string },
  figures: {
    wpm: number;
    accuracy: number;
    at: number;
    implausible?: boolean;
    verified?: boolean;
    replay?: ReplayInput;
  },
) {
  rounds += 1;
  const result: ResultInput = {
    userId: player.userId,
    playerKey: player.key,
    nickname: player.nickname,
    wpm: figures.wpm,
    accuracy: figures.accuracy,
    completionTime: 10,
    position: 1,
    errorCount: 0,
    implausible: figures.implausible ?? false,
    // A typed result unless the test says otherwise (as every result was before results could be unverified).
    verified: figures.verified ?? true,
    replay: figures.replay ?? null,
    createdAt: figures.at,
  };
  await recordResult(
    ctx,
    { mode: "sentence_race", sourceId: "1", sourceName: "테스트 방", round: rounds, startedAt: figures.at - 20_000 },
    result,
  );
  await rankingsSettled(ctx);
}

export const member = (user: { id: number; username: string }) => ({
  userId: user.id,
  key: `u_${user.id}`,
  nickname: user.username,
});
export const guest = (hash: string, nickname: string) => ({ userId: null, key: `g_${hash}`, nickname });

/** Medals and experience as a finished game pays them (accounts' `applyGameRewards`). */
export async function reward(
  server: TestServer,
  userId: number,
  delta: { medal?: "gold" | "silver" | "bronze"; experience?: number },
) {
  rounds += 1;
  await applyGameRewards(server.ctx.database, { key: `test:${rounds}`, at: server.ctx.clock.now() }, [
    {
      userId,
      delta: {
        experience: delta.experience ?? 0,
        coins: 0,
        points: 0,
        medal: delta.medal ?? null,
        won: false,
        wpm: 100,
        accuracy: 90,
      },
    },
  ]);
}
