import postgres from "postgres";
import { startPostgres, type TestService } from "../scripts/test-services";

/**
 * A fresh, empty PostgreSQL database for one test file. `npm test` starts one PostgreSQL server for the whole run
 * and passes it as TEST_POSTGRES_URL; a test file run on its own starts its own server (slower, same behaviour).
 */
let ownServer: Promise<TestService> | null = null;

async function serverUrl(): Promise<string> {
  const shared = process.env.TEST_POSTGRES_URL;
  if (shared) return shared;
  ownServer ??= startPostgres();
  return (await ownServer).url;
}

/**
 * A fresh database with a production-like locale (ICU en-US: locale order, lower() folding É), not the test
 * cluster's C locale, under which PostgreSQL would order and fold text like SQLite and hide a difference between
 * the engines (the board's and admin's searches and orders are tested against it).
 */
export async function createPgTestDatabase(template = "template0"): Promise<{ url: string; drop(): Promise<void> }> {
  const base = await serverUrl();
  const name = `t_${crypto.randomUUID().replaceAll("-", "")}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(
    `CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY FILE_COPY ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'`,
  );
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

let migratedTemplate: Promise<string> | null = null;

/**
 * The name of a database of this process, migrated once by `migrate`, to copy test databases from
 * (`createPgTestDatabase(template)`): a copy takes about 20 ms where migrating a fresh database takes about 400,
 * which was most of the PostgreSQL pass's time. Kept until the server stops (the run's own server).
 */
export function migratedPgTemplate(migrate: (url: string) => Promise<void>): Promise<string> {
  migratedTemplate ??= (async () => {
    const database = await createPgTestDatabase();
    await migrate(database.url);
    return new URL(database.url).pathname.slice(1);
  })();
  return migratedTemplate;
}

/** Stops the server this process started (when it had to start one). */
export async function stopOwnPostgres() {
  if (ownServer) await (await ownServer).stop();
  ownServer = null;
}
