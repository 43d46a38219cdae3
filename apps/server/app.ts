import { cors } from "@elysiajs/cors";
import { openapi } from "@elysiajs/openapi";
import type { Server as Engine } from "@socket.io/bun-engine";
import { Elysia, t } from "elysia";
import { type AppModule, type ModuleContext, orderModules } from "../../modules/kernel/define-module";
import { apiResponses } from "../../modules/kernel/http";
import { BODY_TOO_LARGE, MAX_BODY_LIMIT } from "../../modules/kernel/write-limits";
import { errorHandler, jsonResponse } from "./errors";
import { securityHeaders } from "./security";
import { staticWeb } from "./static-web";
import { SWAGGER_THEME, swaggerAsset, swaggerFont } from "./swagger-assets";

/**
 * Bodies declaring more than the largest any route accepts are refused with 413 from the header alone; each write
 * route then holds its body to its own limit and depth (kernel/write-limits.ts, before anything parses it).
 */
export const API_BODY_LIMIT = MAX_BODY_LIMIT;

function apiRoutes(ctx: ModuleContext, modules: readonly AppModule[]) {
  const api = new Elysia({ name: "app.api", prefix: "/api", normalize: false })
    .get("/health", async () => ({ status: "ok", version: ctx.config.version, database: await ctx.database.ping() }), {
      response: apiResponses({ 200: t.Object({ status: t.String(), version: t.String(), database: t.Boolean() }) }),
      detail: { tags: ["system"], summary: "서버 상태", description: "버전과 데이터베이스 연결 여부" },
    })
    // What the web app needs from the server's configuration (no secrets): the navbar's chat link, shown only when set.
    .get("/config", () => ({ external_chat_url: ctx.config.externalChatUrl }), {
      response: apiResponses({ 200: t.Object({ external_chat_url: t.Nullable(t.String()) }) }),
      detail: {
        tags: ["system"],
        summary: "웹 앱 설정",
        description:
          "external_chat_url: 메뉴의 채팅방 링크(EXTERNAL_CHAT_URL). 설정하지 않으면 null이고 링크를 숨깁니다.",
      },
    });
  for (const module of orderModules(modules)) if (module.routes) api.use(module.routes(ctx));
  return api;
}

// normalize: false on the instances that mount module routes (routes are re-registered in the parent): unknown
// body fields are then refused with 422 instead of silently stripped, and nothing unknown is ever stored.
const SOCKET_PATH = "/socket.io/";

export function createApp(ctx: ModuleContext, modules: readonly AppModule[], engine?: Engine) {
  // Everything under the engine's path is a native Bun route straight to the engine: it reads the raw request
  // itself (polling bodies) and upgrades synchronously (patches/README.md), with none of Elysia's per-request work.
  const routes = engine
    ? { [`${SOCKET_PATH}*`]: (request: Request, server: unknown) => engine.handleRequest(request, server as never) }
    : undefined;
  const app = new Elysia({ name: "app", normalize: false, serve: { maxRequestBodySize: 1024 * 1024, routes } as never })
    .onRequest(({ request }) => {
      const url = new URL(request.url);
      const length = Number(request.headers.get("content-length") ?? 0);
      if (url.pathname.startsWith("/api/") && length > API_BODY_LIMIT) {
        return jsonResponse(413, { detail: BODY_TOO_LARGE });
      }
    })
    .use(securityHeaders())
    .use(errorHandler(ctx.log));

  if (ctx.config.corsOrigins.length > 0) {
    // Never reflect an arbitrary origin: only the configured list gets CORS headers.
    app.use(cors({ origin: ctx.config.corsOrigins, credentials: true, maxAge: 600 }));
  }

  return app
    .use(
      openapi({
        path: "/swagger",
        specPath: "/swagger/json",
        provider: "swagger-ui",
        swagger: { cdn: "/swagger-assets/swagger-ui-bundle.js", theme: SWAGGER_THEME },
        exclude: { paths: ["/swagger-assets/*", "/*", "/api/*", "/socket.io/*"] },
        documentation: {
          info: {
            title: "타자마당 API",
            version: ctx.config.version,
            description:
              "실시간 한국어 타자 게임 타자마당의 HTTP API. 실시간 이벤트는 /socket.io/ (모듈 README 참고). " +
              "각 경로에는 그 경로가 실제로 돌려주는 응답만 적혀 있습니다. 이 밖에 본문이 올바른 JSON이 아니거나 " +
              "32단계보다 깊게 중첩되면 400, 경로가 받는 크기(기본 64KB, x-write-limit의 max_body_bytes)를 넘으면 " +
              "413이며, 오류 응답은 모두 한국어 detail을 담습니다. 쓰기 요청(POST·PUT·DELETE)은 계정과 주소마다 " +
              "x-write-limit의 횟수까지 받고, 넘으면 429와 Retry-After로 답합니다.",
          },
          components: {
            securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
          },
        },
      }),
    )
    .get(
      "/swagger-assets/:file",
      async ({ params }) => (await swaggerAsset(params.file)) ?? jsonResponse(404, { detail: "없는 파일입니다." }),
      { detail: { hide: true } },
    )
    .get(
      "/swagger-assets/fonts/:file",
      async ({ params }) => (await swaggerFont(params.file)) ?? jsonResponse(404, { detail: "없는 파일입니다." }),
      { detail: { hide: true } },
    )
    .use(apiRoutes(ctx, modules))
    .use(staticWeb(ctx.config.webDist));
}
export type App = ReturnType<typeof createApp>;
