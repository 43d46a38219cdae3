import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "./testing";

// Routes that cannot fail with a 4xx (no input, no login): only their 200 body is documented.
const NO_ERRORS = new Set(["get /api/health", "get /api/rooms/"]);

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
});
