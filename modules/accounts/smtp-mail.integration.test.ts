import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdir } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../../apps/server/testing";
import { RESET_LINK_SENT } from "./service";

/**
 * A tiny SMTP sink on 127.0.0.1: speaks just enough SMTP (EHLO, MAIL, RCPT, DATA, QUIT) for nodemailer to deliver,
 * and keeps each message's envelope and data. A real socket: the mailer is not mocked.
 */
interface Received {
  from: string;
  to: string[];
  data: string;
}
const ANSWERS: Record<string, string> = { DATA: "354 go ahead", QUIT: "221 bye" };

function smtpSink() {
  const received: Received[] = [];
  const server: Server = createServer((socket) => {
    let buffer = "";
    let inData = false;
    let current: Received = { from: "", to: [], data: "" };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 sink ESMTP");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (let end = buffer.indexOf("\r\n"); end >= 0; end = buffer.indexOf("\r\n")) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            received.push(current);
            current = { from: "", to: [], data: "" };
            reply("250 OK queued");
          } else current.data += `${line.startsWith("..") ? line.slice(1) : line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "MAIL") current.from = line;
        if (verb === "RCPT") current.to.push(line);
        if (verb === "DATA") inData = true;
        reply(ANSWERS[verb] ?? "250 OK");
        if (verb === "QUIT") socket.end();
      }
    });
  });
  return {
    received,
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const sink = smtpSink();
let server: TestServer;
const saved = { SMTP_URL: process.env.SMTP_URL, PUBLIC_URL: process.env.PUBLIC_URL };

beforeAll(async () => {
  const port = await sink.listen();
  // Read by the accounts module when it is first used by this server (api.ts).
  process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
  process.env.PUBLIC_URL = "https://tajamadang.example";
  server = await startTestServer();
});
afterAll(async () => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await server.stop();
  await sink.close();
});

describe("비밀번호 찾기 over SMTP", () => {
  test("with SMTP_URL the link goes out by mail to the account's address, and not to the outbox", async () => {
    const user = await server.createUser("메일유저");
    const answer = await server.api("POST", "/api/users/forgot-password", { body: { email: user.email } });
    expect(answer.body).toEqual({ detail: RESET_LINK_SENT });
    while (sink.received.length === 0) await Bun.sleep(10);

    const mail = sink.received[0]!;
    expect(mail.to.join()).toContain(user.email);
    // Quoted-printable or base64 bodies: decode what nodemailer wrote before reading the link.
    const text = decodeBody(mail.data);
    const link = text.match(/https:\/\/tajamadang\.example\/password-forgot\/reset\?token=[\w%-]+/);
    expect(link).not.toBeNull();
    const token = new URL(link![0]).searchParams.get("token")!;
    const reset = await server.api("POST", "/api/users/reset-password-with-token", {
      body: { token, new_password: "mailed-pass-42", confirm_password: "mailed-pass-42" },
    });
    expect(reset.status).toBe(200);
    const outbox = await readdir(join(server.ctx.config.dataDir, "outbox")).catch(() => []);
    expect(outbox).toEqual([]);
  });
});

function decodeBody(data: string): string {
  const [headers = "", ...rest] = data.split("\n\n");
  const body = rest.join("\n\n");
  if (/content-transfer-encoding:\s*base64/i.test(headers))
    return Buffer.from(body.replace(/\s/g, ""), "base64").toString("utf8");
  if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) {
    const joined = body.replace(/=\n/g, "");
    return Buffer.from(
      joined.replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
      "latin1",
    ).toString("utf8");
  }
  return body;
}
