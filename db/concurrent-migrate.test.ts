import { afterAll, expect, test } from "bun:test";
import { openAppDatabase } from "../apps/server/context";
import { modules } from "../apps/server/modules";
import { tempConfig } from "./testing";
import { createPgTestDatabase, stopOwnPostgres } from "./testing-pg";

afterAll(stopOwnPostgres);

// Several processes of one deployment start together on a fresh PostgreSQL database: each migrates at boot, one
// after the other (an advisory lock), and every one of them starts.
test("processes started together on a fresh database all migrate and start", async () => {
  const database = await createPgTestDatabase();
  const configs = [0, 1, 2].map(() => tempConfig({ DATABASE_URL: database.url }));
  try {
    const opened = await Promise.allSettled(configs.map((config) => openAppDatabase(config, modules)));
    expect(opened.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
    for (const o of opened) if (o.status === "fulfilled") await o.value.close();
  } finally {
    for (const config of configs) config.cleanup();
    await database.drop();
  }
});
