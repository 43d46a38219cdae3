import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { postgresDatabase, type SqlDatabase, sqliteDatabase } from "./database";
import { openPostgres } from "./postgres";
import { type Dialect, pgKit, type SchemaKit, sqliteKit } from "./schema-kit";
import { createPgTestDatabase, stopOwnPostgres } from "./testing-pg";

// One table for both engines, defined once as a module's tables are (db/README.md); store code is typed by SQLite's.
const defineCounters = <D extends Dialect>(kit: SchemaKit<D>) =>
  kit.table("counters", { id: kit.integer("id").primaryKey(), n: kit.integer("n").notNull() });
const counters = defineCounters(sqliteKit);
const pgCounters = defineCounters(pgKit);
type StoreDb = ReturnType<typeof drizzle>;
const CREATE = "CREATE TABLE counters (id integer PRIMARY KEY, n integer NOT NULL)";

interface Engine {
  name: string;
  open(): Promise<{ database: SqlDatabase; table: typeof counters; cleanup(): Promise<void> }>;
}

const engines: Engine[] = [
  {
    name: "SQLite",
    async open() {
      const sqlite = new Database(":memory:");
      sqlite.run(CREATE);
      const database = sqliteDatabase(sqlite, drizzle({ client: sqlite }));
      return { database, table: counters, cleanup: () => database.close() };
    },
  },
  {
    name: "PostgreSQL",
    async open() {
      const target = await createPgTestDatabase();
      const pg = openPostgres(target.url, { max: 4 });
      await pg.client.unsafe(CREATE);
      const database = postgresDatabase(pg.db, () => pg.client.end());
      const table = pgCounters as unknown as typeof counters;
      return {
        database,
        table,
        async cleanup() {
          await database.close();
          await target.drop();
        },
      };
    },
  },
];

afterAll(() => stopOwnPostgres());

for (const engine of engines) {
  describe(`one store code, transactions on ${engine.name}`, () => {
    let database: SqlDatabase;
    let t: typeof counters;
    let cleanup: () => Promise<void>;
    const run = <T>(fn: (db: StoreDb) => Promise<T>) => database.transaction((db) => fn(db as unknown as StoreDb));
    const ids = async () =>
      (await (database.db as unknown as StoreDb).select({ id: t.id }).from(t).orderBy(t.id)).map((r) => r.id);

    beforeAll(async () => {
      ({ database, table: t, cleanup } = await engine.open());
    });
    afterAll(() => cleanup());

    test("a throw after an await rolls back the whole transaction and nothing of a concurrent one", async () => {
      const failing = run(async (db) => {
        await db.insert(t).values({ id: 1, n: 0 });
        await Bun.sleep(5);
        await db.insert(t).values({ id: 2, n: 0 });
        throw new Error("store refused");
      });
      // Starts while the first is between its awaits: on one SQLite connection it must not join it.
      const other = run(async (db) => {
        await db.insert(t).values({ id: 3, n: 0 });
      });
      await expect(failing).rejects.toThrow("store refused");
      await other;
      expect(await ids()).toEqual([3]);
    });

    test("a nested call joins the transaction it is called from", async () => {
      const attempt = run(async (db) => {
        await db.insert(t).values({ id: 4, n: 0 });
        await run(async (inner) => {
          await inner.insert(t).values({ id: 5, n: 0 });
        });
        throw new Error("outer refused");
      });
      await expect(attempt).rejects.toThrow("outer refused");
      expect(await ids()).toEqual([3]);
    });

    test("builder code with returning and an upsert reads the same on both engines", async () => {
      const bump = () =>
        run(async (db) =>
          db
            .insert(t)
            .values({ id: 7, n: 1 })
            .onConflictDoUpdate({ target: t.id, set: { n: sql`${t.n} + 1` } })
            .returning({ n: t.n }),
        );
      await Promise.all(Array.from({ length: 10 }, bump));
      const [row] = await (database.db as unknown as StoreDb).select().from(t).where(eq(t.id, 7));
      expect(row?.n).toBe(10);
    });
  });
}
