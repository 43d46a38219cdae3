/**
 * The room broadcast alone, without the rest of the application: server CPU per delivered frame when the server
 * does nothing but `to(room).emit` to rooms of 20, for
 *   raw       Bun.serve + server.publish (the floor),
 *   sio       socket.io 4 on @socket.io/bun-engine, socket.io's own per-socket loop,
 *   sio-fast  the same with apps/server/fast-broadcast.ts (encode once, Bun publish).
 * The load benchmark (rooms-load.ts) measures the whole server per delivered frame; this one isolates the part
 * the fast path changes. Same layout: the server on core 0, the clients (bench/protocol-client.ts) in this
 * process on core 1, modes alternated.
 *
 * Usage: bench/run.sh is for rooms-load; run this one with
 *   bun bench/broadcast-cost.ts [--players 2000] [--rate 1000] [--seconds 10] [--rounds 2]
 * (rate = broadcasts per second, each to one room of 20).
 */
import { readFileSync } from "node:fs";
import { Server as Engine } from "@socket.io/bun-engine";
import { Server } from "socket.io";
import { installFastBroadcast } from "../apps/server/fast-broadcast";
import { ProtocolClient } from "./protocol-client";

type Mode = "raw" | "sio" | "sio-fast";
const option = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
};
const MODES = option("modes", "raw,sio,sio-fast").split(",") as Mode[];
const ROOM_SIZE = 20;

/** The chat:message payload of modules/rooms (same fields, similar size). */
const chatPayload = (room: string, n: number) => ({
  room_id: Number(room.slice(1)),
  user_id: null,
  username: "guest_4821",
  nickname: "guest_4821",
  session_id: "g_3fa9c2e1b7d4",
  is_anonymous: true,
  message: `이번 문장 은근히 어렵네요 ${n}`,
  timestamp: new Date().toISOString(),
  is_system: false,
  is_private: false,
  message_type: "chat",
});

// --- server side -----------------------------------------------------------------------------------------------

function serve(mode: Mode) {
  let broadcast: (room: string, n: number) => void;
  let rooms: string[] = [];
  // Exactly rate × seconds broadcasts, spread evenly (due ones caught up at each 10-ms tick).
  const blast = (rate: number, seconds: number) => {
    const total = Math.floor(rate * seconds);
    const start = performance.now();
    let n = 0;
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor((rate * (performance.now() - start)) / 1000));
      while (n < due) broadcast(rooms[n % rooms.length], n++);
      if (n >= total) clearInterval(timer);
    }, 10);
    return new Response(String(total));
  };
  const control = (url: URL) => {
    rooms = Array.from({ length: Number(url.searchParams.get("rooms")) }, (_, i) => `r${i + 1}`);
    return blast(Number(url.searchParams.get("rate")), Number(url.searchParams.get("seconds")));
  };

  if (mode === "raw") {
    const server = Bun.serve<{ sid: string }, never>({
      hostname: "127.0.0.1",
      port: 0,
      fetch(request, s) {
        const url = new URL(request.url);
        if (url.pathname === "/blast") return control(url);
        return s.upgrade(request, { data: { sid: crypto.randomUUID() } })
          ? undefined
          : new Response("no", { status: 400 });
      },
      websocket: {
        open(ws) {
          ws.send(`0${JSON.stringify({ sid: ws.data.sid, upgrades: [], pingInterval: 25000, pingTimeout: 20000 })}`);
        },
        message(ws, raw) {
          const data = String(raw);
          if (data.startsWith("40")) ws.send(`40${JSON.stringify({ sid: ws.data.sid })}`);
          else if (data.startsWith("42")) ws.subscribe(JSON.parse(data.slice(2))[1]);
        },
      },
    });
    broadcast = (room, n) => server.publish(room, `42${JSON.stringify(["chat:message", chatPayload(room, n)])}`);
    return server.port;
  }

  const engine = new Engine({ path: "/socket.io/", pingInterval: 25_000, pingTimeout: 20_000 });
  const io = new Server({ serveClient: false });
  io.bind(engine as never);
  io.on("connection", (socket) => socket.on("join", (room: string) => socket.join(room)));
  const handler = engine.handler();
  const server = Bun.serve({
    ...handler,
    hostname: "127.0.0.1",
    port: 0,
    fetch(request, s) {
      const url = new URL(request.url);
      return url.pathname === "/blast" ? control(url) : engine.handleRequest(request, s as never);
    },
  });
  if (mode === "sio-fast") installFastBroadcast(io, () => server);
  broadcast = (room, n) => io.to(room).emit("chat:message", chatPayload(room, n));
  return server.port;
}

// --- orchestrator ----------------------------------------------------------------------------------------------

const CLOCK_TICKS = 100;
function cpu(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { user: (Number(f[11]) * 1e6) / CLOCK_TICKS, system: (Number(f[12]) * 1e6) / CLOCK_TICKS };
}

async function measure(mode: Mode, players: number, rate: number, seconds: number) {
  const profile = process.env.BENCH_CPU_PROF
    ? ["--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const proc = Bun.spawn(["taskset", "-c", "0", process.execPath, ...profile, import.meta.path, "--serve", mode], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = proc.stdout.getReader();
  const port = Number(new TextDecoder().decode((await reader.read()).value).trim());
  let received = 0;
  const clients: ProtocolClient[] = [];
  try {
    for (let i = 0; i < players; i += 200) {
      const batch = Array.from({ length: Math.min(200, players - i) }, (_, j) => {
        const client = new ProtocolClient({
          url: `http://127.0.0.1:${port}`,
          onEvent: () => {
            received++;
          },
        });
        clients.push(client);
        return client.connect().then(() => client.emit("join", `r${Math.floor((i + j) / ROOM_SIZE) + 1}`));
      });
      await Promise.all(batch);
    }
    await Bun.sleep(2000);
    const rooms = Math.ceil(players / ROOM_SIZE);
    received = 0;
    const before = cpu(proc.pid);
    const broadcasts = Number(
      await (await fetch(`http://127.0.0.1:${port}/blast?rooms=${rooms}&rate=${rate}&seconds=${seconds}`)).text(),
    );
    await Bun.sleep(seconds * 1000 + 1500);
    const after = cpu(proc.pid);
    const user = after.user - before.user;
    const total = user + after.system - before.system;
    return {
      mode,
      delivered: received,
      expected: broadcasts * ROOM_SIZE,
      cpu_us_per_frame: Math.round((total / received) * 1000) / 1000,
      user_us_per_frame: Math.round((user / received) * 1000) / 1000,
      server_cpu: Math.round((total / 1e6 / seconds) * 1000) / 1000,
    };
  } finally {
    proc.kill(profile.length > 0 ? "SIGTERM" : "SIGKILL");
    await proc.exited;
    for (const c of clients) c.close();
    await Bun.sleep(1000);
  }
}

if (process.argv.includes("--serve")) {
  console.log(serve(option("serve", "raw") as Mode));
  process.on("SIGTERM", () => process.exit(0)); // lets --cpu-prof write its profile
} else {
  Bun.spawnSync(["taskset", "-cp", "1", String(process.pid)]);
  const players = Math.min(10_000, Number(option("players", "2000")));
  const rate = Math.min(5_000, Number(option("rate", "1000")));
  const seconds = Math.min(60, Number(option("seconds", "10")));
  const rounds = Math.min(5, Number(option("rounds", "2")));
  const results: Awaited<ReturnType<typeof measure>>[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const mode of MODES) {
      const r = await measure(mode, players, rate, seconds);
      console.log(JSON.stringify(r));
      results.push(r);
    }
  }
  const mean = (mode: Mode, key: "cpu_us_per_frame" | "user_us_per_frame") => {
    const list = results.filter((r) => r.mode === mode);
    return list.reduce((s, r) => s + r[key], 0) / list.length;
  };
  console.log(`\n${players} players in rooms of ${ROOM_SIZE}, ${rate} broadcasts/s for ${seconds} s, ${rounds} rounds`);
  for (const mode of MODES) {
    const total = mean(mode, "cpu_us_per_frame");
    const user = mean(mode, "user_us_per_frame");
    console.log(
      `${mode.padEnd(9)} ${total.toFixed(3)} µs/frame (×${(total / mean("raw", "cpu_us_per_frame")).toFixed(2)} raw), ` +
        `user ${user.toFixed(3)} µs/frame (×${(user / mean("raw", "user_us_per_frame")).toFixed(2)} raw)`,
    );
  }
  process.exit(0);
}
