import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { users } from "./core/schema.pg";
import { isUniqueViolation, migrateAllPg, openPostgres } from "./postgres";
import { createPgTestDatabase, stopOwnPostgres } from "./testing-pg";

describe("PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof createPgTestDatabase>>;
  let pg: ReturnType<typeof openPostgres>;

  beforeAll(async () => {
    database = await createPgTestDatabase();
    pg = openPostgres(database.url, { max: 2 });
  });
  afterAll(async () => {
    await pg.client.end();
    await database.drop();
    await stopOwnPostgres();
  });

  test("migrating twice creates the core tables once, each owner in its own tracking table", async () => {
    expect(await migrateAllPg(pg.db, [])).toEqual(["core"]);
    await migrateAllPg(pg.db, []);
    const rows = await pg.db.execute(sql`SELECT count(*)::int AS n FROM public.__migrations_core`);
    expect(rows[0]?.n).toBe(1);
  });

  test("the users table keeps its unique keys and reads timestamps back as dates", async () => {
    const [row] = await pg.db
      .insert(users)
      .values({ username: "타자왕", usernameKey: "타자왕", email: "a@example.com", passwordHash: "x" })
      .returning();
    expect(row?.createdAt).toBeInstanceOf(Date);
    expect(row?.level).toBe(1);
    const again = pg.db
      .insert(users)
      .values({ username: "타자왕", usernameKey: "타자왕", email: "b@example.com", passwordHash: "x" });
    const error = await again.execute().then(
      () => null,
      (e: unknown) => e,
    );
    expect(isUniqueViolation(error)).toBe(true);
  });
});
