import { afterAll, beforeAll } from "bun:test";
import { testEngine } from "../../db/testing";
import { type ClusterProcess, startCluster, type TestCluster } from "./cluster-testing";

/**
 * The hooks every cross-process suite shares: on the PostgreSQL pass of `npm test` (several processes need
 * PostgreSQL) two server processes are started before the suite and stopped after it, the clients it kept closed
 * first. On SQLite nothing starts, and the suite skips itself with `onPostgres`. The processes are read in the
 * suite's own `beforeAll` (registered after this one, so it runs after the start).
 */
export function twoProcessSuite<C extends { close(): void }>() {
  const suite = {
    onPostgres: testEngine() === "postgres",
    cluster: undefined as TestCluster | undefined,
    processes: [] as ClusterProcess[],
    /** Closed after the suite. */
    clients: [] as C[],
  };
  beforeAll(async () => {
    if (!suite.onPostgres) return;
    suite.cluster = await startCluster(2);
    suite.processes = suite.cluster.processes;
  }, 60_000);
  afterAll(async () => {
    for (const client of suite.clients) client.close();
    await suite.cluster?.stop();
  });
  return suite;
}
