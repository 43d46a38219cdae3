import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { io as connect } from "socket.io-client";
import { tempConfig } from "../../db/testing";
import { Client } from "../../modules/rooms/test-support";

/**
 * A stop or a crash must not lose a result the player was told about (issue 9). A real server process
 * (fixtures/shutdown-server.ts, started and stopped as `bun apps/server/index.ts` is), a member and a guest in a
 * room; the member's answer is accepted while the guest has not answered, so the game is still running. Then:
 * SIGTERM — the server finishes the game (results, medals, rewards) before it exits; SIGKILL after the result's
 * write was performed — the result is in the database even though the game never finished. The database file is
 * read after the process has exited.
 */
const FIXTURE = join(import.meta.dir, "fixtures/shutdown-server.ts");

interface Running {
  proc: Subprocess<"ignore", "pipe", "pipe">;
  url: string;
  roomId: number;
  databaseFile: string;
  cleanup(): void;
}

const started: Running[] = [];
const clients: Client[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const r of started.splice(0)) {
    r.proc.kill("SIGKILL");
    await r.proc.exited;
    r.cleanup();
  }
});

/** Starts the fixture server on a free port with its own data folder; resolves once it prints READY. */
async function startServerProcess(): Promise<Running> {
  const config = tempConfig();
  const proc = Bun.spawn([process.execPath, FIXTURE], {
    env: {
      ...process.env,
      DATA_DIR: config.dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      JWT_SECRET: config.jwtSecret,
      NODE_ENV: "test",
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const ready = await readyLine(proc);
  const running = { proc, ...ready, databaseFile: config.databaseFile, cleanup: config.cleanup };
  started.push(running);
  return running;
}

async function readyLine(proc: Subprocess<"ignore", "pipe", "pipe">) {
  let seen = "";
  const decoder = new TextDecoder();
  const reader = proc.stdout.getReader();
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      seen += decoder.decode(chunk.value);
      const line = seen.split("\n").find((l) => l.startsWith("READY "));
      if (line) return JSON.parse(line.slice("READY ".length)) as { url: string; roomId: number };
    }
  } finally {
    reader.releaseLock();
  }
  throw new Error(`the server exited before it was ready: ${await new Response(proc.stderr).text()}`);
}

async function api(url: string, method: string, path: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function registerMember(url: string) {
  const user = { username: "끝까지", email: "shutdown@example.com", password: "shutdown-pass-2026" };
  const registered = await api(url, "POST", "/api/users/register", user);
  expect(registered.status).toBe(201);
  const login = await api(url, "POST", "/api/users/login", { email: user.email, password: user.password });
  return { id: registered.body.id as number, token: login.body.access_token as string };
}

async function open(url: string, auth: Record<string, string>) {
  const socket = connect(url, { path: "/socket.io/", transports: ["websocket"], reconnection: false, auth });
  const client = new Client(socket);
  clients.push(client);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return client;
}

/**
 * A member and a guest in the room; the member's answer is accepted (game:personal_feedback) while the guest has
 * not answered, so the game runs on. Waits on the server's real clock for the sentence (0.2 s + a 1 s countdown).
 */
async function resultAcceptedMidGame(server: Running) {
  const member = await registerMember(server.url);
  const player = await open(server.url, { token: member.token, client_id: "shutdown-member" });
  const guest = await open(server.url, { client_id: "shutdown-guest" });
  player.emit("join_room", { room_id: server.roomId });
  await player.next("room:joined");
  guest.emit("join_anonymous", { room_id: server.roomId });
  await guest.next("room:joined:anonymous");
  const state = await player.next("game:state", (s) => s.status === "in_progress", 10_000);
  player.emit("game:submission", {
    room_id: server.roomId,
    sentence_id: state.sentence.id,
    typed_text: state.sentence.text,
  });
  expect(await player.next("game:personal_feedback")).toMatchObject({ position: 1, accuracy: 100 });
  return { member, player };
}

/** What the database file holds after the process is gone. */
function storedAfterExit(databaseFile: string, userId: number) {
  const db = new Database(databaseFile, { readonly: true });
  try {
    return {
      results: db
        .query("SELECT player_key, position, implausible FROM games_results WHERE player_key = ?")
        .all(`u_${userId}`),
      games: db.query("SELECT mode, round, ended_at IS NOT NULL AS ended, participants FROM games_games").all(),
      member: db.query("SELECT games_played, coins FROM users WHERE id = ?").get(userId),
    };
  } finally {
    db.close();
  }
}

describe("stopping the server mid-game", () => {
  test("SIGTERM: the game in play is finished and stored (result, game, rewards) before the process exits", async () => {
    const server = await startServerProcess();
    const { member, player } = await resultAcceptedMidGame(server);

    server.proc.kill("SIGTERM");
    // Optional, but the socket is still up: the player hears how the game ended.
    const results = await player.next("game:results", () => true, 10_000);
    expect(results.results).toEqual([expect.objectContaining({ user_id: member.id, position: 1 })]);
    expect(await server.proc.exited).toBe(0);

    expect(storedAfterExit(server.databaseFile, member.id)).toEqual({
      results: [{ player_key: `u_${member.id}`, position: 1, implausible: 0 }],
      games: [{ mode: "sentence_race", round: 1, ended: 1, participants: 1 }],
      member: { games_played: 1, coins: 5 }, // a lone answer: the participation reward
    });
  });

  test("SIGKILL after the result's write: the acknowledged result is in the database", async () => {
    const server = await startServerProcess();
    const { member } = await resultAcceptedMidGame(server);
    // The write was performed once the member's own records show the result (the game is still running).
    let shown = false;
    for (let attempt = 0; attempt < 500 && !shown; attempt++) {
      const records = await api(server.url, "GET", `/api/games/results/user/${member.id}`, undefined, member.token);
      shown = records.body.length > 0;
      if (!shown) await Bun.sleep(20);
    }
    expect(shown).toBe(true);

    server.proc.kill("SIGKILL");
    expect(await server.proc.exited).not.toBe(0);

    expect(storedAfterExit(server.databaseFile, member.id)).toEqual({
      results: [{ player_key: `u_${member.id}`, position: 1, implausible: 0 }],
      games: [{ mode: "sentence_race", round: 1, ended: 0, participants: 0 }],
      member: { games_played: 0, coins: 0 }, // rewards come with the finish, which never happened
    });
  });
});
