import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "./testing";

// Routes that cannot fail with a 4xx (no input, no login): only their 200 body is documented.
const NO_ERRORS = new Set([
  "get /api/health",
  "get /api/config",
  "get /api/rooms/",
  "get /api/practice/texts",
  "get /api/practice/word-list",
]);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, unknown>;
  anyOf?: unknown[];
}
type Responses = Record<string, { content?: Record<string, { schema?: Schema }> }>;

describe("/swagger/json documents every API route's answers", () => {
  test("each operation has a 2xx body schema and its 4xx answers are {detail}", async () => {
    const spec = (await server.api("GET", "/swagger/json")).body;
    const resolve = (schema?: Schema): Schema | undefined =>
      schema?.$ref ? spec.components.schemas[schema.$ref.split("/").pop()!] : schema;
    const schemaOf = (answer: Responses[string]) => resolve(Object.values(answer.content ?? {})[0]?.schema);
    const problems: string[] = [];
    let operations = 0;
    for (const [path, item] of Object.entries<Record<string, { responses?: Responses }>>(spec.paths)) {
      if (!path.startsWith("/api/")) continue;
      for (const [method, op] of Object.entries(item)) {
        operations++;
        const name = `${method} ${path}`;
        const answers = Object.entries(op.responses ?? {});
        const ok = answers.find(([code]) => code.startsWith("2"));
        const body = ok && schemaOf(ok[1]);
        if (!body || !(body.type || body.properties || body.anyOf)) problems.push(`${name}: no 2xx schema`);
        const errors = answers.filter(([code]) => code.startsWith("4"));
        if (errors.length === 0 && !NO_ERRORS.has(name)) problems.push(`${name}: no 4xx`);
        for (const [code, answer] of errors)
          if (!schemaOf(answer)?.properties?.detail) problems.push(`${name}: ${code} is not {detail}`);
      }
    }
    expect(problems).toEqual([]);
    // accounts, board, games, admin and the rest are all there.
    for (const prefix of ["/api/users/", "/api/board/", "/api/games/", "/api/admin/"])
      expect(Object.keys(spec.paths).some((p) => p.startsWith(prefix))).toBe(true);
    expect(operations).toBeGreaterThan(40);
  });

  test("every operation is described and every answer has a Korean description", async () => {
    const problems: string[] = [];
    for (const { name, op } of apiOperations(await swagger())) {
      if (!op.description?.trim()) problems.push(`${name}: no description`);
      for (const [code, answer] of Object.entries(op.responses ?? {}))
        if (!HANGUL.test(answer.description ?? "") || answer.description?.startsWith("Response for status"))
          problems.push(`${name} ${code}: "${answer.description}"`);
    }
    expect(problems).toEqual([]);
  });

  test("numbers in answers are plain numbers, not numeric strings", async () => {
    const spec = await swagger();
    const problems: string[] = [];
    for (const { name, op } of apiOperations(spec))
      for (const [code, answer] of Object.entries(op.responses ?? {}))
        for (const schema of Object.values(answer.content ?? {}))
          for (const found of numericStrings(schema.schema, spec)) problems.push(`${name} ${code}: ${found}`);
    expect(problems).toEqual([]);
    // The user object's numbers, as Swagger UI shows them.
    const user = spec.paths["/api/users/me"].get.responses["200"].content["application/json"].schema;
    expect(user.properties.id).toEqual({ type: "integer" });
    expect(user.properties.avg_wpm.type).toBe("number");
  });

  test("each operation lists exactly the statuses its handler and guards answer", async () => {
    const spec = await swagger();
    const statuses = (method: string, path: string) => Object.keys(spec.paths[path][method].responses).sort();
    // 400: a username holding a word of the profanity list (modules/moderation README).
    expect(statuses("post", "/api/users/register")).toEqual(["201", "400", "409", "422", "429"]);
    expect(statuses("post", "/api/users/login")).toEqual(["200", "401", "403", "422", "429"]);
    expect(statuses("get", "/api/users/me")).toEqual(["200", "401", "403"]);
    expect(statuses("post", "/api/users/reset-password-with-token")).toEqual(["200", "400", "422", "429"]);
    // An administrator route: the admin guard's 401 and 403, no 409 or 400 it cannot give.
    expect(statuses("get", "/api/admin/dashboard")).toEqual(["200", "401", "403"]);
    // Every write may also answer its write limit's 429 (kernel/write-limits.ts).
    expect(statuses("post", "/api/admin/users/{userId}/deactivate")).toEqual([
      "200",
      "400",
      "401",
      "403",
      "404",
      "422",
      "429",
    ]);
    expect(statuses("post", "/api/admin/users/{userId}/activate")).toEqual(["200", "401", "403", "404", "422", "429"]);
    // Public lists: no login answers, nothing to find.
    expect(statuses("get", "/api/board/")).toEqual(["200", "422"]);
    expect(statuses("get", "/api/guilds/")).toEqual(["200", "422"]);
    expect(statuses("get", "/api/rankings/users")).toEqual(["200", "422"]);
    expect(statuses("get", "/api/board/{postId}")).toEqual(["200", "404", "422"]);
    // Guild routes: 409 only where the service refuses a conflict.
    expect(statuses("post", "/api/guilds/{id}/leave")).toEqual(["200", "401", "403", "404", "409", "422", "429"]);
    expect(statuses("get", "/api/guilds/{id}/members")).toEqual(["200", "401", "403", "404", "422"]);
    const me = spec.paths["/api/users/me"].get.responses;
    expect(me["200"].description).toBe("성공");
    expect(me["401"].description).toBe("로그인이 필요합니다");
    expect(spec.paths["/api/users/register"].post.responses["201"].description).toBe("만들어짐");
    expect(spec.paths["/api/board/{postId}"].get.responses["404"].description).toBe("게시글을 찾을 수 없습니다");
  });
});

const HANGUL = /[가-힣]/;

interface Operation {
  description?: string;
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}
// biome-ignore lint/suspicious/noExplicitAny: the parsed OpenAPI document
type Spec = any;

const swagger = async (): Promise<Spec> => (await server.api("GET", "/swagger/json")).body;

function apiOperations(spec: Spec) {
  const operations: { name: string; op: Operation }[] = [];
  for (const [path, item] of Object.entries<Record<string, Operation>>(spec.paths))
    if (path.startsWith("/api/"))
      for (const [method, op] of Object.entries(item)) operations.push({ name: `${method} ${path}`, op });
  return operations;
}

/** Where a schema (references followed) documents a number as a numeric string, as a list of JSON paths. */
function numericStrings(schema: unknown, spec: Spec, at = "$", seen = new Set<string>()): string[] {
  if (!schema || typeof schema !== "object") return [];
  const node = schema as Record<string, unknown>;
  if (typeof node.$ref === "string") {
    if (seen.has(node.$ref)) return [];
    seen.add(node.$ref);
    return numericStrings(spec.components.schemas[node.$ref.split("/").pop()!], spec, at, seen);
  }
  const here = node.type === "string" && (node.format === "integer" || node.format === "numeric") ? [at] : [];
  return here.concat(Object.entries(node).flatMap(([key, child]) => numericStrings(child, spec, `${at}.${key}`, seen)));
}
