import { describe, expect, test } from "bun:test";
import { ApiError } from "../../lib/api";
import { memoryStorage } from "../../lib/tokens";
import type { Recorded, ResultInput } from "./practice-api";
import { createResultQueue } from "./unsent-results";
import { UNSENT_KEY } from "./unsent-sync";

const result = (clientId: string): ResultInput => ({
  client_id: clientId,
  kind: "words",
  text_id: "words",
  layout: "dubeolsik",
  wpm: 200,
  accuracy: 98,
  keystrokes: 100,
  error_count: 2,
  duration_ms: 30_000,
  finished_at: "2025-01-01T00:00:00.000Z",
  summary: { layout: "dubeolsik", jamo: [], transitions: [], corrections: 0 },
});

/** A server that answers each send when told to (or fails it), and counts what it received. */
function fakeServer() {
  const received: string[] = [];
  const waiting: { id: string; answer: (ok: boolean | ApiError) => void }[] = [];
  const send = (r: ResultInput) =>
    new Promise<Recorded>((resolve, reject) => {
      received.push(r.client_id);
      waiting.push({
        id: r.client_id,
        answer: (ok) =>
          ok === true
            ? resolve({ id: received.length, stored: true, experience: 10 })
            : reject(ok === false ? new ApiError(0, "네트워크") : ok),
      });
    });
  /** Answers every send waiting now and lets the queue go on to the next. */
  const answerAll = async (ok: boolean | ApiError = true) => {
    for (let round = 0; round < 20; round++) {
      await Bun.sleep(0);
      for (const call of waiting.splice(0)) call.answer(ok);
    }
  };
  return { received, send, answerAll };
}

function queueWith(owner: number | null = 7) {
  const storage = memoryStorage();
  const server = fakeServer();
  const queue = createResultQueue({ storage: () => storage, send: server.send, owner: () => owner });
  return { storage, server, queue };
}

const ids = (entries: { result: ResultInput }[]) => entries.map((entry) => entry.result.client_id);

describe("unsent practice results", () => {
  test("two sendings at once send each result once; the queue is empty after", async () => {
    const { queue, server, storage } = queueWith();
    queue.add(7, result("result-a1"));
    queue.add(7, result("result-b2"));
    const first = queue.send();
    const second = queue.send();
    await server.answerAll();
    const [a, b] = await Promise.all([first, second]);
    expect(server.received).toEqual(["result-a1", "result-b2"]);
    expect([...a.sent.keys()]).toEqual(["result-a1", "result-b2"]);
    expect(b.sent.size).toBe(0);
    expect(storage.getItem(UNSENT_KEY)).toBeNull();
  });

  test("a result that fails to save stays, and is sent again when the connection returns", async () => {
    const { queue, server } = queueWith();
    queue.add(7, result("result-a1"));
    queue.add(7, result("result-b2"));
    const offline = queue.send();
    await server.answerAll(false);
    // The run stops at the first failure: the second would fail the same way.
    expect(await offline).toMatchObject({ waiting: 2 });
    expect(server.received).toEqual(["result-a1"]);
    expect(ids(queue.pending())).toEqual(["result-a1", "result-b2"]);

    const online = queue.send();
    await server.answerAll(true);
    expect([...(await online).sent.keys()]).toEqual(["result-a1", "result-b2"]);
    expect(server.received).toEqual(["result-a1", "result-a1", "result-b2"]);
    expect(queue.pending()).toEqual([]);
  });

  test("two tabs sharing the storage and the browser's lock send each result once", async () => {
    const storage = memoryStorage();
    const server = fakeServer();
    let held: Promise<unknown> = Promise.resolve();
    const locks = {
      request<T>(_name: string, callback: () => Promise<T>) {
        const turn = held.then(callback);
        held = turn.catch(() => {});
        return turn;
      },
    };
    const tab = () => createResultQueue({ storage: () => storage, send: server.send, owner: () => 7, locks });
    const [one, two] = [tab(), tab()];
    one.add(7, result("result-a1"));
    two.add(7, result("result-b2"));
    const sending = Promise.all([one.send(), two.send(), one.send()]);
    await server.answerAll();
    await sending;
    expect(server.received).toEqual(["result-a1", "result-b2"]);
    expect(one.pending()).toEqual([]);
  });

  test("a 5xx, a 429 or a lost session keeps the result; a refusal by the rules drops it with the reason", async () => {
    for (const status of [500, 429, 401]) {
      const { queue, server } = queueWith();
      queue.add(7, result("result-a1"));
      const sending = queue.send();
      await server.answerAll(new ApiError(status, "실패"));
      expect((await sending).waiting).toBe(1);
      expect(ids(queue.pending())).toEqual(["result-a1"]);
    }
    const { queue, server } = queueWith();
    queue.add(7, result("result-a1"));
    queue.add(7, result("result-b2"));
    const sending = queue.send();
    await server.answerAll(new ApiError(422, "비정상적으로 빠른 입력이 감지되어 결과가 인정되지 않았습니다."));
    expect([...(await sending).refused.entries()]).toEqual([
      ["result-a1", "비정상적으로 빠른 입력이 감지되어 결과가 인정되지 않았습니다."],
      ["result-b2", "비정상적으로 빠른 입력이 감지되어 결과가 인정되지 않았습니다."],
    ]);
    expect(queue.pending()).toEqual([]);
  });

  test("a result added while a sending is under way is kept, and sent by the next", async () => {
    const { queue, server } = queueWith();
    queue.add(7, result("result-a1"));
    const first = queue.send();
    await Bun.sleep(0);
    queue.add(7, result("result-b2"));
    const second = queue.send();
    await server.answerAll();
    expect([...(await first).sent.keys()]).toEqual(["result-a1"]);
    expect([...(await second).sent.keys()]).toEqual(["result-b2"]);
    expect(server.received).toEqual(["result-a1", "result-b2"]);
  });

  test("only the signed-in member's results are sent; nobody signed in sends nothing", async () => {
    const { queue, server } = queueWith(7);
    queue.add(8, result("other-member"));
    queue.add(7, result("result-a1"));
    const sending = queue.send();
    await server.answerAll();
    expect([...(await sending).sent.keys()]).toEqual(["result-a1"]);
    expect(ids(queue.pending())).toEqual(["other-member"]);

    const guest = queueWith(null);
    guest.queue.add(7, result("result-a1"));
    expect((await guest.queue.send()).sent.size).toBe(0);
    expect(guest.server.received).toEqual([]);
  });

  test("adding the same client id twice keeps one copy", () => {
    const { queue } = queueWith();
    queue.add(7, result("result-a1"));
    queue.add(7, result("result-a1"));
    expect(ids(queue.pending())).toEqual(["result-a1"]);
  });
});
