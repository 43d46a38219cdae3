/** `npm start` after bootstrap: production web build, then migrate + seed + serve (data kept in DATA_DIR). */
import { buildWeb } from "./build-web";

process.env.NODE_ENV ??= "production";
await buildWeb();
const { startServer, stopOnSignals } = await import("../apps/server/index");
const server = await startServer({ seed: true });
console.log(`타자마당이 ${server.url} 에서 실행 중입니다.`);
// SIGTERM/SIGINT (forwarded by the bootstrap) finish the games in play, then exit 0.
stopOnSignals(server);
