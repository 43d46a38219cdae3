/**
 * Where a connected player's memory goes: starts the server under test (bench/server-under-test.ts, core 0),
 * connects N guests into rooms of 20 (bench/protocol-client.ts, this process), and compares the server's RSS and
 * live JS objects by type (after a full GC) with everyone joined against idle. Prints per-player figures and the
 * object types that grew the most.
 *
 *   bun bench/memory-probe.ts --players 4000
 *   BENCH_HEAP_SNAPSHOT=1 bun bench/memory-probe.ts --players 1000   # also counts by name and retainer (slow)
 *
 * PROBE_SERVER=<file> probes another server that prints the same BENCH_READY line and handles SIGUSR2 the same way.
 * Raise the descriptor limit first (`ulimit -n 20000`).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { launchServer, processRssKiB, sleep } from "./launch-server";
import { ProtocolClient } from "./protocol-client";

const { values } = parseArgs({
  options: { players: { type: "string", default: "2000" }, top: { type: "string", default: "40" } },
});
const players = Number(values.players);
type HeapStats = { heapSize: number; objectCount: number; objectTypeCounts: Record<string, number> };

const heapDir = mkdtempSync(join(tmpdir(), "tajamadang-probe-"));
const heapFile = join(heapDir, "heap.json");
const server = await launchServer({
  entry: process.env.PROBE_SERVER ?? "bench/server-under-test.ts",
  roomCount: Math.ceil(players / 20),
  env: { BENCH_HEAP_FILE: heapFile },
});
const rssKiB = () => processRssKiB(server.pid);

async function snapshot() {
  rmSync(heapFile, { force: true });
  process.kill(server.pid, "SIGUSR2");
  for (let i = 0; i < 100; i++) {
    await sleep(100);
    try {
      const heap = JSON.parse(readFileSync(heapFile, "utf8")) as HeapStats;
      await sleep(500);
      const names = process.env.BENCH_HEAP_SNAPSHOT === "1" ? namesOf(`${heapFile}.heapsnapshot`) : new Map();
      return { rss: rssKiB(), heap, names };
    } catch {}
  }
  throw new Error("no heap stats");
}

/** Node counts by "type name" from a V8-format heap snapshot. */
function namesOf(file: string): Map<string, number> {
  const snap = JSON.parse(readFileSync(file, "utf8"));
  const fields: string[] = snap.snapshot.meta.node_fields;
  const types: string[] = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const edgeWidth = snap.snapshot.meta.edge_fields.length;
  const edgeTypes: string[] = snap.snapshot.meta.edge_types[0];
  const nodeName = (i: number) =>
    `${types[snap.nodes[i + typeAt]]} ${snap.strings[snap.nodes[i + nameAt]]}`.slice(0, 60);
  const counts = new Map<string, number>();
  // Each node keyed by its own name and the first retainer that names it (property or element of whom).
  const retainer = new Map<number, string>();
  const edgeCountAt = fields.indexOf("edge_count");
  let edge = 0;
  for (let i = 0; i < snap.nodes.length; i += width) {
    for (let k = 0; k < snap.nodes[i + edgeCountAt]; k++, edge += edgeWidth) {
      const type = edgeTypes[snap.edges[edge]];
      const nameOrIndex = snap.edges[edge + 1];
      const to = snap.edges[edge + 2];
      if (retainer.has(to) || type === "weak") continue;
      const label = type === "element" || type === "hidden" ? `[${type}]` : snap.strings[nameOrIndex];
      retainer.set(to, `${label} of ${nodeName(i)}`);
    }
  }
  const sizeAt = fields.indexOf("self_size");
  for (let i = 0; i < snap.nodes.length; i += width) {
    const key = `${nodeName(i)}  ←  ${retainer.get(i) ?? "?"}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    counts.set(`bytes ${key}`, (counts.get(`bytes ${key}`) ?? 0) + snap.nodes[i + sizeAt]);
  }
  return counts;
}

try {
  const { port, rooms } = server;
  await sleep(1500);
  const idle = await snapshot();
  const clients: ProtocolClient[] = [];
  let joined = 0;
  for (let i = 0; i < players; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, players - i) }, async (_, k) => {
        const n = i + k;
        const client = new ProtocolClient({
          url: `http://127.0.0.1:${port}`,
          auth: { client_id: `probe-${n}` },
          onEvent: (name) => {
            if (name === "room:joined:anonymous") joined++;
          },
        });
        clients.push(client);
        await client.connect();
        client.emit("join_anonymous", { room_id: rooms[Math.floor(n / 20)] });
      }),
    );
  }
  for (let i = 0; i < 300 && joined < players; i++) await sleep(100);
  await sleep(3000);
  const full = await snapshot();
  const per = (a: number, b: number) => ((a - b) / players).toFixed(2);
  console.log(`players ${players}, joined ${joined}`);
  console.log(`RSS per player (after full GC): ${per(full.rss, idle.rss)} KiB`);
  console.log(`JS heap per player: ${per(full.heap.heapSize / 1024, idle.heap.heapSize / 1024)} KiB`);
  console.log(`JS objects per player: ${per(full.heap.objectCount, idle.heap.objectCount)}`);
  const growth = Object.entries(full.heap.objectTypeCounts)
    .map(([type, count]) => [type, (count - (idle.heap.objectTypeCounts[type] ?? 0)) / players] as const)
    .filter(([, g]) => g >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(values.top));
  for (const [type, g] of growth) console.log(`  ${g.toFixed(2).padStart(7)}  ${type}`);
  if (full.names.size) {
    const byName = [...full.names]
      .map(([name, count]) => [name, (count - (idle.names.get(name) ?? 0)) / players] as const)
      .filter(([name, g]) => (name.startsWith("bytes ") ? g >= 16 : g >= 0.3))
      .sort((a, b) => b[1] - a[1]);
    console.log("objects by name and first retainer (V8 snapshot; 'bytes' lines: self size per player):");
    for (const [name, g] of byName) console.log(`  ${g.toFixed(2).padStart(7)}  ${name}`);
  }
  for (const client of clients) client.close();
} finally {
  await server.stop();
  rmSync(heapDir, { recursive: true, force: true });
}
