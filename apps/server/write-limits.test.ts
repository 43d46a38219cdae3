import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  BODY_TOO_DEEP,
  BODY_TOO_LARGE,
  DEFAULT_BODY_LIMIT,
  MAX_BODY_DEPTH,
  TOO_MANY_WRITES,
} from "../../modules/kernel/write-limits";
import { PARSE_FAILED } from "./errors";
import { startTestServer, type TestServer } from "./testing";

// One server for the whole file, with TRUST_PROXY on: a request from 127.0.0.1 (a trusted proxy) comes from the
// address its X-Forwarded-For names, so each test writes from addresses of its own.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { TRUST_PROXY: "1" } });
});
afterAll(() => server.stop());

let addresses = 0;
/** A fresh client address (documentation range 198.51.100.0/24, then 203.0.113.0/24). */
const newAddress = () => {
  const n = ++addresses;
  return n < 255 ? `198.51.100.${n}` : `203.0.113.${n - 254}`;
};
const from = (address: string) => ({ "x-forwarded-for": address });

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

describe("JSON bodies are checked before anything parses them", () => {
  test("a body nested deeper than 32 levels is a 400 with a Korean detail, and the server keeps answering", async () => {
    const address = newAddress();
    // ~60 KB of brackets: under the size limit, so the depth is what refuses it. Three in flight at once.
    const deep = nested(30_000);
    const answers = await Promise.all(
      [0, 1, 2].map(() => server.api("POST", "/api/users/login", { raw: deep, headers: from(address) })),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ detail: BODY_TOO_DEEP });
    }
    const health = await server.api("GET", "/api/health");
    expect(health.status).toBe(200);
    expect(health.body.status).toBe("ok");
    // An object nested as deep, inside a field, is refused the same way.
    const deepObject = `{"email":${'{"a":'.repeat(MAX_BODY_DEPTH)}1${"}".repeat(MAX_BODY_DEPTH)},"password":"x"}`;
    const refused = await server.api("POST", "/api/users/login", { raw: deepObject, headers: from(address) });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe(BODY_TOO_DEEP);
  });

  test("32 levels are read and validated as usual; brackets inside strings do not count", async () => {
    const address = newAddress();
    const atLimit = await server.api("POST", "/api/users/login", {
      raw: `{"email":${nested(MAX_BODY_DEPTH - 1)},"password":"x"}`,
      headers: from(address),
    });
    expect(atLimit.status).toBe(422);
    const member = await server.createUser("괄호쟁이");
    const post = await server.api("POST", "/api/board/", {
      token: member.token,
      headers: from(address),
      body: { title: "괄호 놀이", content: `${nested(200)} \\" [[[ {{{ "` },
    });
    expect(post.status).toBe(201);
    expect(post.body.content).toBe(`${nested(200)} \\" [[[ {{{ "`);
  });

  test("a multipart body with deeply nested fields is refused the same way", async () => {
    const form = new FormData();
    form.set("email", nested(5_000));
    form.set("password", "x");
    const response = await fetch(`${server.url}/api/users/login`, {
      method: "POST",
      body: form,
      headers: from(newAddress()),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ detail: BODY_TOO_DEEP });
  });

  test("a body over the route's size is a 413 with a Korean detail, whether it declares its length or not", async () => {
    const address = newAddress();
    const big = JSON.stringify({ email: "a".repeat(DEFAULT_BODY_LIMIT), password: "x" });
    const declared = await server.api("POST", "/api/users/login", { raw: big, headers: from(address) });
    expect(declared.status).toBe(413);
    expect(declared.body).toEqual({ detail: BODY_TOO_LARGE });
    // Sent as a stream: no Content-Length, the size is found while reading.
    const bytes = new TextEncoder().encode(big);
    const streamed = await fetch(`${server.url}/api/users/login`, {
      method: "POST",
      headers: { "content-type": "application/json", ...from(address) },
      body: new ReadableStream({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 8192) controller.enqueue(bytes.subarray(at, at + 8192));
          controller.close();
        },
      }),
    });
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toEqual({ detail: BODY_TOO_LARGE });
  });

  test("a route that needs more declares it: a board post of 20,000 Korean characters (~60 KB) is stored", async () => {
    const member = await server.createUser("긴글쟁이");
    const content = "가".repeat(20_000);
    const post = await server.api("POST", "/api/board/", {
      token: member.token,
      headers: from(newAddress()),
      body: { title: "아주 긴 글", content },
    });
    expect(post.status).toBe(201);
    expect(post.body.content).toBe(content);
  });

  test("a body that is not JSON is a 400 with a Korean detail", async () => {
    const answer = await server.api("POST", "/api/users/login", { raw: '{"email": ', headers: from(newAddress()) });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ detail: PARSE_FAILED });
  });
});

describe("every HTTP write is rate-limited per account and per address", () => {
  test("a member's 11th board post in ten minutes is a 429 with Retry-After; another member is still served", async () => {
    const address = newAddress();
    const writer = await server.createUser("도배꾼");
    const post = (token: string) =>
      server.api("POST", "/api/board/", {
        token,
        headers: from(address),
        body: { title: "도배", content: "같은 글" },
      });
    for (let i = 0; i < 10; i++) expect((await post(writer.token)).status).toBe(201);
    const refused = await post(writer.token);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: TOO_MANY_WRITES });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Comments have their own budget (20), and the same address still serves another member.
    const other = await server.createUser("이웃");
    expect((await post(other.token)).status).toBe(201);
    const postId = (await post(other.token)).body.id;
    const comment = () =>
      server.api("POST", `/api/board/${postId}/comments`, {
        token: writer.token,
        headers: from(address),
        body: { content: "댓글" },
      });
    for (let i = 0; i < 20; i++) expect((await comment()).status).toBe(201);
    const tooMany = await comment();
    expect(tooMany.status).toBe(429);
    expect(tooMany.body.detail).toBe(TOO_MANY_WRITES);
  });

  test("an account is counted across addresses: a member's 6th guild in an hour is refused from anywhere", async () => {
    const founder = await server.createUser("길드수집가");
    const create = (name: string) =>
      server.api("POST", "/api/guilds/", { token: founder.token, headers: from(newAddress()), body: { name } });
    for (let i = 1; i <= 5; i++) {
      const made = await create(`수집길드${i}`);
      expect(made.status).toBe(201);
      // Disbanding (its own budget) frees the member to make the next one.
      const gone = await server.api("DELETE", `/api/guilds/${made.body.id}`, {
        token: founder.token,
        headers: from(newAddress()),
      });
      expect(gone.status).toBe(200);
    }
    const refused = await create("수집길드6");
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toBe(TOO_MANY_WRITES);
  });

  test("an address is counted across accounts and anonymous requests; other addresses are not affected", async () => {
    const address = newAddress();
    // 100 guild creations an hour per address: anonymous attempts (401) count too.
    for (let i = 0; i < 100; i++) {
      const anonymous = await server.api("POST", "/api/guilds/", { headers: from(address), body: { name: "익명" } });
      expect(anonymous.status).toBe(401);
    }
    const member = await server.createUser("교실학생");
    const refused = await server.api("POST", "/api/guilds/", {
      token: member.token,
      headers: from(address),
      body: { name: "교실길드" },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toBe(TOO_MANY_WRITES);
    // Refused by the address: the member's own count was given back, so from elsewhere all 5 remain.
    for (let i = 1; i <= 5; i++) {
      const made = await server.api("POST", "/api/guilds/", {
        token: member.token,
        headers: from(newAddress()),
        body: { name: `교실길드${i}` },
      });
      expect(made.status).toBe(201);
      await server.api("DELETE", `/api/guilds/${made.body.id}`, { token: member.token, headers: from(newAddress()) });
    }
  });

  test("every POST, PUT, PATCH and DELETE route of the API declares its write limit", async () => {
    const writes = server.app.routes.filter(
      (route) => route.path.startsWith("/api/") && ["POST", "PUT", "PATCH", "DELETE"].includes(route.method),
    );
    expect(writes.length).toBeGreaterThan(30);
    const undeclared = writes
      .filter((route) => !(route.hooks.detail as Record<string, unknown> | undefined)?.["x-write-limit"])
      .map((route) => `${route.method} ${route.path}`);
    expect(undeclared).toEqual([]);
    // …and documents it: the figures and the 429.
    const spec = (await server.api("GET", "/swagger/json")).body;
    const comment = spec.paths["/api/board/{postId}/comments"].post;
    expect(comment["x-write-limit"]).toEqual({
      account: 20,
      address: 300,
      window_seconds: 600,
      max_body_bytes: DEFAULT_BODY_LIMIT,
    });
    expect(comment.responses["429"].description).toBe("요청이 너무 많습니다");
  });
});
