import { beforeAll, describe, expect, test } from "bun:test";
import { seoulDate } from "../../modules/kernel/seoul-time";
import { openTestClient, type TestClient } from "../../modules/kernel/socket-testing";
import { keystrokes } from "../../modules/kernel/typing";
import { twoProcessSuite } from "./cluster-suite";
import type { ClusterProcess } from "./cluster-testing";
import { clusterUser } from "./cluster-testing";

// The live race on two real server processes (one PostgreSQL, one Redis), issue 26 "Done when": a room round played
// with steps on one process leaves a replay that the other serves, its lanes reach a spectator connected to the
// other, and a 오늘의 문장 attempt on one is on the board (with its replay, the ghost's steps) read from the other.
// Runs in the PostgreSQL pass of `npm test`.
const suite = twoProcessSuite<TestClient>();
const { onPostgres, clients } = suite;
const DAILY_SENTENCE = "가는 말이 고와야 오는 말이 곱다";

let a: ClusterProcess;
let b: ClusterProcess;
beforeAll(() => {
  if (!suite.cluster) return;
  [a, b] = suite.processes;
});

async function connect(process: ClusterProcess, auth: Record<string, string>) {
  const client = await openTestClient(process, auth);
  clients.push(client);
  return client;
}

/**
 * Types `text` a character at a time, each step sent as the page sends the answer box, at about 1,200 타/분 (no
 * burst, plausible); `send` gets the box after each character. Answers the steps sent.
 */
async function typeOut(text: string, send: (typed: string) => void): Promise<string[]> {
  const chars = [...text];
  const everyMs = (keystrokes(text) * 50) / chars.length;
  const steps: string[] = [];
  for (let i = 1; i <= chars.length; i++) {
    await Bun.sleep(everyMs);
    steps.push(chars.slice(0, i).join(""));
    send(steps.at(-1)!);
  }
  return steps;
}

describe.skipIf(!onPostgres)("the live race on two processes", () => {
  test("a round on A: its lanes reach a spectator on B, and B serves its replay with the steps", async () => {
    const rooms = await a.api("GET", "/api/rooms");
    const roomId: number = rooms.body[2].id;
    const racer = await clusterUser(a, "경주자");
    const player = await connect(a, { token: racer.token });
    player.emit("join_room", { room_id: roomId });
    await player.next("room:joined", () => true, 10_000);
    const watcher = await connect(b, { client_id: `watcher-${crypto.randomUUID()}` });
    watcher.emit("join_anonymous", { room_id: roomId, spectate: true });
    await watcher.next("room:joined:anonymous", () => true, 10_000);

    const state = await player.next("game:state", (s) => s.status === "in_progress", 20_000);
    const sentence: { id: number; text: string } = state.sentence;
    const steps = await typeOut(sentence.text, (typed) =>
      player.emit("game:progress", { room_id: roomId, typed_text: typed }),
    );
    player.emit("game:submission", {
      room_id: roomId,
      sentence_id: sentence.id,
      typed_text: sentence.text,
      elapsed_time: 1,
    });
    const done = await player.next("game:submission_complete", (s) => s.user_id === racer.id, 10_000);
    expect(done.replay_key).toHaveLength(22);

    // The racer's lane, seen from the other process: moving, then finished first.
    const lane = (update: { participants: { key: unknown; progress: number; completed: boolean }[] }) =>
      update.participants.find((p) => p.key === racer.id);
    const moving = await watcher.next("game:progress_update", (u) => (lane(u)?.progress ?? 0) > 0, 10_000);
    expect(lane(moving)!.progress).toBeLessThanOrEqual(1);
    const finished = await watcher.next("game:progress_update", (u) => lane(u)?.completed === true, 10_000);
    expect(lane(finished)).toMatchObject({ progress: 1, completed: true, position: 1 });

    const replay = await b.api("GET", `/api/replays/${done.replay_key}`);
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ mode: "sentence_race", sentence: sentence.text, player: { name: "경주자" } });
    expect(replay.body.steps.map((step: { text: string }) => step.text)).toEqual(steps);
    const times = replay.body.steps.map((step: { t: number }) => step.t);
    expect(times).toEqual([...times].sort((x, y) => x - y));
  }, 60_000);

  test("a 오늘의 문장 attempt on B is on the board read from A, its replay (the ghost's steps) served by A", async () => {
    // The day's sentence, chosen before anyone asks (the first row of the day wins): a short one to type.
    await suite.cluster!.sql`
      INSERT INTO daily_days (day, sentence_id, sentence_text, chosen_at)
      VALUES (${seoulDate(Date.now())}, 1, ${DAILY_SENTENCE}, now()) ON CONFLICT DO NOTHING`;
    const member = await clusterUser(b, "도전자");
    const player = await connect(b, { token: member.token });
    expect(await player.ack("daily:join")).toMatchObject({ success: true, best: null });
    player.emit("daily:start");
    const state = await player.next("daily:state", (s) => s.status === "in_progress", 10_000);
    const steps = await typeOut(state.sentence.text, (typed) => player.emit("daily:progress", { typed_text: typed }));
    player.emit("daily:submit", { typed_text: state.sentence.text });
    const result = await player.next("daily:result", () => true, 10_000);
    expect(result).toMatchObject({ stored: true, verified: true, best: { rank: 1 } });

    const { body } = await a.api("GET", "/api/daily");
    expect(body.board[0]).toMatchObject({ nickname: "도전자", wpm: result.wpm, replay_key: result.best.replay_key });
    const ghost = await a.api("GET", `/api/replays/${body.board[0].replay_key}`);
    expect(ghost.status).toBe(200);
    expect(ghost.body.steps.map((step: { text: string }) => step.text)).toEqual(steps);
  }, 30_000);
});
