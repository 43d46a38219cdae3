/**
 * `npm start` after bootstrap: production web build, then migrate + seed + serve (data kept in DATA_DIR).
 * WEB_BUILD=0 serves the dist/web already built (a deployment that builds once, the process tests).
 */
import { buildWeb } from "./build-web";

process.env.NODE_ENV ??= "production";
if (process.env.WEB_BUILD !== "0") await buildWeb();
const { startServer, stopOnSignals } = await import("../apps/server/index");
const server = await startServer({ seed: true });
console.log(`타자마당이 ${server.url} 에서 실행 중입니다.`);
// SIGTERM/SIGINT/SIGHUP (forwarded by the bootstrap) finish the games in play, then exit 0; so does the bootstrap's
// death (MADANG_PARENT_PID).
stopOnSignals(server);
