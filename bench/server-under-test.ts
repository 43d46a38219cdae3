/**
 * Our real server (apps/server/index.ts `startServer`, every module, default rooms settings, seeded) plus the
 * benchmark's rooms: BENCH_ROOMS rooms of 20 created through the rooms module's public `createRoom` before any
 * player connects. Env as for the server (DATA_DIR, PORT, HOST, NODE_ENV=production, LOG_LEVEL=warn), and
 * BENCH_FAST_BROADCAST=0 to measure socket.io's own per-socket broadcast instead of the fast path, and
 * BENCH_WINDOW_PROF=<dir> for a CPU profile of the window (bench/window-profile.ts).
 * Prints `BENCH_READY {"port":…,"rooms":[…]}` once listening.
 */
import { removeFastBroadcast } from "../apps/server/fast-broadcast";
import { startServer } from "../apps/server/index";
import { createRoom } from "../modules/rooms";
import { collectOnSignal, startLagLog } from "./lag-log";
import { profileWindowOnSignal } from "./window-profile";

const roomCount = Number(process.env.BENCH_ROOMS ?? 500);
const running = await startServer({ seed: true });
if (process.env.BENCH_FAST_BROADCAST === "0") removeFastBroadcast(running.io);

const rooms: number[] = [];
for (let i = 1; i <= roomCount; i++) {
  rooms.push((await createRoom(running.ctx, { name: `부하 시험 방 ${i}`, theme: "free", maxUsers: 20 })).id);
}
startLagLog("server");
collectOnSignal();
profileWindowOnSignal(process.env.BENCH_WINDOW_PROF);
console.log(`BENCH_READY ${JSON.stringify({ port: running.port, rooms })}`);

const stop = async () => {
  await running.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
