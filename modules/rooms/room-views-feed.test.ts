import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type Cluster, openCluster } from "../kernel/cluster";
import { eventually, type TestRedisClient, testRedis } from "../kernel/game-host/redis-testing";
import { createLogger } from "../kernel/logger";
import type { RoomView } from "./room-view";
import { RoomViewsFeed } from "./room-views-feed";

/**
 * The room list between processes (`RoomViewsFeed`) on a real Redis: each "process" is its own pair of Redis
 * connections (`openCluster`) with a feed, a set of rooms it owns and a lobby of a given size.
 */
const log = createLogger("error");
let redis: Awaited<ReturnType<typeof testRedis>>;
let looker: TestRedisClient;
const opened: { cluster: Cluster; feed: RoomViewsFeed }[] = [];

beforeAll(async () => {
  redis = await testRedis();
  looker = await redis.client();
});
afterAll(async () => {
  for (const { cluster, feed } of opened) {
    await feed.stop();
    await cluster.close();
  }
  await redis.stop();
});

const view = (id: number, users: number) => ({ id, name: `방 ${id}`, user_count: users }) as unknown as RoomView;

interface TestProcess {
  cluster: Cluster;
  feed: RoomViewsFeed;
  rooms: Map<number, RoomView>;
  heard: RoomView[];
  lobby: { size: number };
}

async function startProcess(prefix: string, rooms: RoomView[] = []): Promise<TestProcess> {
  const cluster = await openCluster(redis.url, log, { prefix });
  const process: TestProcess = {
    cluster,
    rooms: new Map(rooms.map((room) => [room.id, room])),
    heard: [],
    lobby: { size: 0 },
    feed: undefined as unknown as RoomViewsFeed,
  };
  process.feed = new RoomViewsFeed({
    cluster,
    log,
    ownViews: () => [...process.rooms.values()],
    heard: (changed) => process.heard.push(...changed),
    lobbySize: () => process.lobby.size,
    lingerMs: 200,
    helloEveryMs: 200,
  });
  await process.feed.start();
  opened.push({ cluster, feed: process.feed });
  return process;
}

/** The owner's room changed: the feed sends it (when anyone listens). */
function change(owner: TestProcess, room: RoomView) {
  owner.rooms.set(room.id, room);
  owner.feed.changed([room]);
}

const usersIn = (process: TestProcess, roomId: number) =>
  (process.feed.viewsOf([roomId]).get(roomId) as unknown as { user_count: number } | undefined)?.user_count;

const viewListeners = async (prefix: string) =>
  (await looker.pubSubNumSub(`${prefix}rooms:views`))[`${prefix}rooms:views`];

const newPrefix = () => `test:feed:${crypto.randomUUID().slice(0, 8)}:`;

describe("the room list between processes", () => {
  test("a new listener's first list waits for the owners' answers; then every change reaches it", async () => {
    const prefix = newPrefix();
    const owner = await startProcess(prefix, [view(1, 2), view(2, 0)]);
    const other = await startProcess(prefix, [view(3, 5)]);
    const listener = await startProcess(prefix);
    listener.lobby.size = 1;

    await listener.feed.want();
    expect([usersIn(listener, 1), usersIn(listener, 2), usersIn(listener, 3)]).toEqual([2, 0, 5]);

    change(owner, view(1, 3));
    expect(await eventually(() => usersIn(listener, 1) === 3)).toBe(true);
    expect(listener.heard.at(-1)).toMatchObject({ id: 1, user_count: 3 });
    // The owners do not listen (no lobby, no list call): they keep no view of each other's rooms.
    expect(usersIn(other, 1)).toBeUndefined();
  });

  test("with nobody watching an owner sends nothing; a process joining while someone listens sends at once", async () => {
    const prefix = newPrefix();
    const owner = await startProcess(prefix, [view(1, 1)]);
    const listener = await startProcess(prefix);
    await listener.feed.want(); // a list call: it listens for the linger (200 ms), then stops
    expect(owner.feed.sending).toBe(true);
    expect(await eventually(async () => (await viewListeners(prefix)) === 0)).toBe(true);
    change(owner, view(1, 2)); // reaches nobody: the owner stops sending
    expect(await eventually(() => !owner.feed.sending)).toBe(true);

    listener.lobby.size = 1;
    await listener.feed.want();
    expect(owner.feed.sending).toBe(true);
    expect(usersIn(listener, 1)).toBe(2);
    const late = await startProcess(prefix, [view(9, 4)]);
    expect(late.feed.sending).toBe(true);
    change(late, view(9, 5));
    expect(await eventually(() => usersIn(listener, 9) === 5)).toBe(true);
  });

  test("a listener cut off from Redis is sent the changes again after its next hello", async () => {
    const prefix = newPrefix();
    const owner = await startProcess(prefix, [view(1, 1)]);
    const listener = await startProcess(prefix);
    listener.lobby.size = 1;
    await listener.feed.want();

    // The listener's subscription drops, and Redis takes no new connection for a while (node-redis reconnects and
    // subscribes again as soon as it can); a change sent meanwhile reaches nobody, so the owner stops sending.
    const name = `madang:${listener.cluster.processId}:subscriber`;
    const clients = String(await looker.sendCommand(["CLIENT", "LIST"]));
    const id = clients
      .split("\n")
      .find((entry) => entry.includes(` name=${name} `))
      ?.match(/^id=(\d+)/)?.[1];
    expect(id).toBeDefined();
    const maxClients = (await looker.configGet("maxclients")).maxclients;
    const connected = clients.trim().split("\n").length;
    await looker.configSet("maxclients", String(connected - 1));
    try {
      await looker.sendCommand(["CLIENT", "KILL", "ID", id!]);
      change(owner, view(1, 2));
      expect(await eventually(() => !owner.feed.sending)).toBe(true);
    } finally {
      await looker.configSet("maxclients", maxClients);
    }

    // Its next hello (every 200 ms here, 20 s in production) brings the owner back, with the room as it is now.
    expect(await eventually(() => usersIn(listener, 1) === 2)).toBe(true);
    change(owner, view(1, 3));
    expect(await eventually(() => usersIn(listener, 1) === 3)).toBe(true);
  }, 30_000);
});
