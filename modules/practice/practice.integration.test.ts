import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer, type TestUser } from "../../apps/server/testing";
import { createRandom, FakeClock } from "../kernel/clock";
import { DAY_MS, seoulDate, seoulDayStart } from "../kernel/seoul-time";
import { jamoKeys } from "../kernel/typing";
import { practiceExperience, type ResultInput } from "./api";
import { WORDS } from "./content";
import { KeystrokeTally } from "./keystroke-model";

/**
 * Practice over real HTTP on a real database (TEST_DATABASE=postgres runs it on PostgreSQL), on a fake clock: results
 * stored at most once, the experience of the day's first 30 minutes and nothing else, the statistics and progress
 * the keystrokes make, a guest's results moved at login, refusals, and the content routes.
 */
let server: TestServer;
let clock: FakeClock;
// 12:00 in Seoul on 2026-05-01.
const START = Date.UTC(2026, 4, 1, 3, 0, 0);

beforeAll(async () => {
  clock = new FakeClock(START);
  server = await startTestServer({ clock, random: createRandom(() => 0.5) });
});
afterAll(() => server.stop());

let ids = 0;
const clientId = () => `result-${++ids}-${crypto.randomUUID().slice(0, 8)}`;

/** The summary a page makes when `text` is typed right, one key every 200 ms. */
function summaryOf(text: string, slip?: { wrong: string; at: number }) {
  const tally = new KeystrokeTally();
  tally.setTarget(text);
  let value = "";
  let t = 0;
  const type = (next: string, keys: number) => {
    t += 200 * keys;
    tally.input(next, t);
  };
  for (const [i, char] of Array.from(text).entries()) {
    if (slip && slip.at === i) {
      type(value + slip.wrong, 1);
      type(value, 1);
    }
    value += char;
    // One key every 200 ms: a syllable of three keys arrives 600 ms after the one before.
    type(value, jamoKeys(char).length);
  }
  return tally.summary();
}

function result(overrides: Partial<ResultInput> = {}): ResultInput {
  return {
    client_id: clientId(),
    kind: "words",
    text_id: "words",
    layout: "dubeolsik",
    wpm: 300,
    accuracy: 95,
    keystrokes: 300,
    error_count: 2,
    duration_ms: 60_000,
    summary: summaryOf("가나 빵"),
    ...overrides,
  };
}

/** A new access token after the fake clock moved past the last one's 15 minutes. */
async function relogin(user: TestUser) {
  const login = await server.api("POST", "/api/users/login", { body: { email: user.email, password: user.password } });
  user.token = login.body.access_token;
}

const record = (user: TestUser, body: unknown) =>
  server.api("POST", "/api/practice/results", { token: user.token, body });
const me = async (user: TestUser) => (await server.api("GET", "/api/users/me", { token: user.token })).body;
const stats = async (user: TestUser) => (await server.api("GET", "/api/practice/stats", { token: user.token })).body;

describe("results", () => {
  test("a result is stored once, pays the participation part per minute, and nothing but experience", async () => {
    const user = await server.createUser("연습생1");
    const body = result();
    const first = await record(user, body);
    expect(first.status).toBe(200);
    // 10 + 300 × 95 / 1000 = 38.5 → 39 a minute, for one minute.
    expect(first.body).toMatchObject({ stored: true, day: seoulDate(START), experience: 39 });
    expect(first.body.user).toMatchObject({ experience: 39, level: 1 });
    const again = await record(user, body);
    expect(again.body).toMatchObject({ id: first.body.id, stored: false, experience: 39, user: null });
    const after = await me(user);
    expect(after).toMatchObject({ experience: 39, coins: 0, points: 0, games_played: 0, gold_medals: 0 });
  });

  test("the same result sent five times at once is stored and paid once", async () => {
    const user = await server.createUser("연습생2");
    const body = result();
    const answers = await Promise.all(Array.from({ length: 5 }, () => record(user, body)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.body.stored)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect((await me(user)).experience).toBe(39);
    expect((await stats(user)).totals).toMatchObject({ results: 1, today_minutes: 1 });
  });

  test("only the first 30 minutes of a Seoul day pay; the next day pays again", async () => {
    const user = await server.createUser("연습생3");
    const tenMinutes = { duration_ms: 600_000, keystrokes: 3_000 };
    const paid = [];
    for (let i = 0; i < 4; i++) paid.push((await record(user, result(tenMinutes))).body.experience);
    // The fourth ten minutes are past the day's 30.
    expect(paid).toEqual([390, 390, 390, 0]);
    const partly = await record(user, result({ duration_ms: 120_000, keystrokes: 600 }));
    expect(partly.body.experience).toBe(0);
    expect((await stats(user)).totals).toMatchObject({
      today_minutes: 42,
      today_paid_minutes: 30,
      today_experience: 1_170,
      streak: 1,
    });
    // Idle time does not count: a minute with 10 keystrokes counts 20 s.
    clock.advance(DAY_MS);
    await relogin(user);
    const idle = await record(user, result({ duration_ms: 60_000, keystrokes: 10, wpm: 10, accuracy: 100 }));
    expect(idle.body.experience).toBe(practiceExperience({ wpm: 10, accuracy: 100 }, 20_000));
    expect((await stats(user)).totals).toMatchObject({ streak: 2, practice_days: 2 });
  });

  test("a result finished more than a day before is stored without pay; one older than 30 days is refused", async () => {
    const user = await server.createUser("연습생4");
    const late = await record(user, result({ finished_at: new Date(clock.now() - 2 * DAY_MS).toISOString() }));
    expect(late.body).toMatchObject({ stored: true, experience: 0, day: seoulDate(clock.now() - 2 * DAY_MS) });
    const ancient = await record(user, result({ finished_at: new Date(clock.now() - 40 * DAY_MS).toISOString() }));
    expect(ancient.status).toBe(422);
    expect(ancient.body.detail).toBe("30일보다 오래된 연습 기록은 저장하지 않습니다.");
    // A finish in the future is taken as now.
    const ahead = await record(user, result({ finished_at: new Date(clock.now() + DAY_MS).toISOString() }));
    expect(ahead.body.day).toBe(seoulDate(clock.now()));
  });

  test("refusals: no token, implausible speed, impossible tallies, malformed fields", async () => {
    const user = await server.createUser("연습생5");
    expect((await server.api("POST", "/api/practice/results", { body: result() })).status).toBe(401);
    const fast = await record(user, result({ keystrokes: 2_000, duration_ms: 60_000 }));
    expect(fast.status).toBe(422);
    expect(fast.body.detail).toBe("비정상적으로 빠른 입력이 감지되어 결과가 인정되지 않았습니다.");
    const faster = await record(user, result({ wpm: 400, keystrokes: 300, duration_ms: 60_000 }));
    expect(faster.body.detail).toBe("속도가 입력한 타수보다 빠를 수 없습니다.");
    const summary = summaryOf("가");
    summary.jamo[0]!.errors = summary.jamo[0]!.hits + 1;
    const impossible = await record(user, result({ summary }));
    expect(impossible.status).toBe(422);
    expect(impossible.body.detail).toContain("자모 통계가 올바르지 않습니다");
    const twice = summaryOf("가");
    twice.jamo.push({ ...twice.jamo[0]! });
    expect((await record(user, result({ summary: twice }))).body.detail).toBe(
      "자모 통계에 같은 자모가 두 번 있습니다.",
    );
    const unknownJamo = { ...summaryOf("가"), jamo: [{ jamo: "A", hits: 1, errors: 0, time_ms: 0, timed: 0 }] };
    expect((await record(user, result({ summary: unknownJamo } as never))).status).toBe(422);
    const badId = await record(user, result({ client_id: "짧음" }));
    expect(badId.status).toBe(422);
    expect(badId.body.detail[0].loc).toEqual(["body", "client_id"]);
    // Nothing refused was stored.
    expect((await stats(user)).totals.results).toBe(0);
  });
});

describe("statistics and progress", () => {
  test("연속 연습 counts Seoul days in a row, today or up to yesterday; a day missed starts again", async () => {
    const user = await server.createUser("연속1");
    const streak = async () => (await stats(user)).totals.streak;
    expect(await streak()).toBe(0);
    // 23:30 in Seoul, then 00:30: two days in a row (the same UTC day).
    const night = seoulDayStart(clock.now()) + 23.5 * 3_600_000;
    clock.advance(Math.max(0, night - clock.now()));
    await relogin(user);
    await record(user, result());
    expect(await streak()).toBe(1);
    clock.advance(3_600_000);
    await relogin(user);
    await record(user, result());
    expect(await streak()).toBe(2);
    // The next day, before practising: the run still stands; the day after without practice, it is over.
    clock.advance(DAY_MS);
    await relogin(user);
    expect(await streak()).toBe(2);
    clock.advance(DAY_MS);
    await relogin(user);
    expect(await streak()).toBe(0);
    await record(user, result());
    expect(await streak()).toBe(1);
  });

  test("the keystrokes make per-jamo speed and errors, transitions, and the weakest jamo", async () => {
    const user = await server.createUser("연습생6");
    // ㅃ slipped every time (ㅂ first), the 도깨비불 of 가나 typed right.
    for (let i = 0; i < 3; i++) await record(user, result({ summary: summaryOf("가나 빵빵", { wrong: "ㅂ", at: 3 }) }));
    const body = await stats(user);
    expect(body.jamo).toHaveLength(34);
    const of = (unit: string) => body.jamo.find((j: { unit: string }) => j.unit === unit);
    expect(of("ㅃ")).toMatchObject({ hits: 9, errors: 3, error_rate: 0.3333, speed: 300 });
    expect(of("ㄴ")).toMatchObject({ hits: 3, errors: 0, speed: 300 });
    expect(of("ㅉ")).toMatchObject({ hits: 0, errors: 0, speed: null });
    const dokkaebi = body.transitions.find((t: { unit: string }) => t.unit === "dokkaebi");
    expect(dokkaebi).toMatchObject({ hits: 3, errors: 0 });
    expect(body.transitions.find((t: { unit: string }) => t.unit === "shift")).toMatchObject({ hits: 9, errors: 3 });
    expect(body.weakest[0]).toBe("ㅃ");
  });

  test("progress per day and kind, and one jamo's days", async () => {
    const user = await server.createUser("연습생7");
    await record(
      user,
      result({ kind: "keys", text_id: "keys:shift", wpm: 200, summary: summaryOf("빵", { wrong: "ㅂ", at: 0 }) }),
    );
    await record(user, result({ kind: "keys", text_id: "keys:shift", wpm: 300, summary: summaryOf("빵") }));
    clock.advance(DAY_MS);
    await relogin(user);
    await record(user, result({ kind: "long", text_id: "long:kim-sowol-azaleas", summary: summaryOf("빵") }));
    const progress = await server.api("GET", "/api/practice/progress?days=7&unit=ㅃ", { token: user.token });
    expect(progress.status).toBe(200);
    const yesterday = seoulDate(clock.now() - DAY_MS);
    expect(progress.body.days).toEqual([
      { day: yesterday, kind: "keys", results: 2, wpm: 250, accuracy: 95, minutes: 2 },
      { day: seoulDate(clock.now()), kind: "long", results: 1, wpm: 300, accuracy: 95, minutes: 1 },
    ]);
    expect(progress.body.unit.days.map((d: { error_rate: number }) => d.error_rate)).toEqual([0.3333, 0]);
    const unknown = await server.api("GET", "/api/practice/progress?unit=Q", { token: user.token });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toBe("알 수 없는 자모나 전환입니다: Q");
    expect((await server.api("GET", "/api/practice/progress")).status).toBe(401);
  });
});

describe("goals", () => {
  const goal = (user: TestUser | null, method: "GET" | "PUT" | "DELETE", body?: unknown) =>
    server.api(method, "/api/practice/goal", { token: user?.token, body });

  test("a member sets, replaces and clears a target; each member has their own", async () => {
    const user = await server.createUser("목표1");
    const other = await server.createUser("목표2");
    expect((await goal(user, "GET")).body).toEqual({ goal: null });
    const set = await goal(user, "PUT", { wpm: 300, accuracy: 95.26 });
    expect(set.status).toBe(200);
    expect(set.body.goal).toEqual({ wpm: 300, accuracy: 95.3, updated_at: new Date(clock.now()).toISOString() });
    expect((await goal(user, "GET")).body).toEqual(set.body);
    expect((await goal(other, "GET")).body).toEqual({ goal: null });
    await goal(user, "PUT", { wpm: 350, accuracy: 97 });
    expect((await goal(user, "GET")).body.goal).toMatchObject({ wpm: 350, accuracy: 97 });
    expect((await goal(user, "DELETE")).body).toEqual({ goal: null });
    expect((await goal(user, "GET")).body).toEqual({ goal: null });
    // Clearing what is not there is no error.
    expect((await goal(user, "DELETE")).status).toBe(200);
  });

  test("refusals: no token; a speed or accuracy out of range, a fractional speed, a missing field", async () => {
    for (const method of ["GET", "PUT", "DELETE"] as const) {
      const refused = await goal(null, method, method === "PUT" ? { wpm: 300, accuracy: 95 } : undefined);
      expect(refused.status, method).toBe(401);
      expect(refused.body.detail, method).toBe("로그인이 필요합니다.");
    }
    const user = await server.createUser("목표3");
    await goal(user, "PUT", { wpm: 300, accuracy: 95 });
    const cases: [unknown, string, string][] = [
      [{ wpm: 5, accuracy: 95 }, "wpm", "10 이상의 값이어야 합니다."],
      [{ wpm: 1_501, accuracy: 95 }, "wpm", "1500 이하의 값이어야 합니다."],
      [{ wpm: 300.5, accuracy: 95 }, "wpm", "정수여야 합니다."],
      [{ wpm: 300, accuracy: 101 }, "accuracy", "100 이하의 값이어야 합니다."],
      [{ wpm: 300, accuracy: 40 }, "accuracy", "50 이상의 값이어야 합니다."],
      [{ wpm: 300 }, "accuracy", "필수 항목입니다."],
      [{ wpm: "빠르게", accuracy: 95 }, "wpm", "정수여야 합니다."],
    ];
    for (const [body, field, message] of cases) {
      const refused = await goal(user, "PUT", body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body.detail, JSON.stringify(body)).toContainEqual({ loc: ["body", field], msg: message });
    }
    // The target set before stays.
    expect((await goal(user, "GET")).body.goal).toMatchObject({ wpm: 300, accuracy: 95 });
  });
});

describe("the profile's summary", () => {
  test("all the practice time, days, 연속 연습, the best of each kind, the weakest jamo; no game figure", async () => {
    const user = await server.createUser("요약1");
    const summaryOfUser = async () => (await server.api("GET", "/api/practice/summary", { token: user.token })).body;
    expect(await summaryOfUser()).toEqual({
      results: 0,
      total_minutes: 0,
      practice_days: 0,
      streak: 0,
      best: [],
      weakest: [],
    });
    const slipped = summaryOf("가나 빵빵", { wrong: "ㅂ", at: 3 });
    const long = { kind: "long", text_id: "long:x", keystrokes: 500, summary: slipped } as const;
    await record(user, result({ ...long, wpm: 250, duration_ms: 90_000 }));
    await record(user, result({ kind: "words", wpm: 300, summary: slipped }));
    clock.advance(DAY_MS);
    await relogin(user);
    expect((await record(user, result({ ...long, wpm: 320 }))).status).toBe(200);
    const summary = await summaryOfUser();
    expect(summary).toMatchObject({ results: 3, total_minutes: 3.5, practice_days: 2, streak: 2 });
    expect(summary.best).toEqual([
      { kind: "words", wpm: 300 },
      { kind: "long", wpm: 320 },
    ]);
    expect(summary.weakest[0]).toMatchObject({ unit: "ㅃ", hits: 9, errors: 3, error_rate: 0.3333 });
    // Practice is no game: the account's games and averages stay as they were.
    expect(await me(user)).toMatchObject({ games_played: 0, avg_wpm: 0, avg_accuracy: 0 });
    expect((await server.api("GET", "/api/practice/summary")).status).toBe(401);
  });
});

describe("a guest's results at login", () => {
  test("stored once each, never paid; a broken one is skipped and counted", async () => {
    const user = await server.createUser("연습생8");
    const kept = [result(), result(), result({ keystrokes: 5_000, duration_ms: 60_000 })];
    const merged = await server.api("POST", "/api/practice/merge", { token: user.token, body: { results: kept } });
    expect(merged.status).toBe(200);
    expect(merged.body).toEqual({ stored: 2, duplicates: 0, rejected: 1 });
    const again = await server.api("POST", "/api/practice/merge", { token: user.token, body: { results: kept } });
    expect(again.body).toEqual({ stored: 0, duplicates: 2, rejected: 1 });
    expect((await me(user)).experience).toBe(0);
    expect((await stats(user)).totals).toMatchObject({ results: 2, today_experience: 0 });
    expect((await server.api("POST", "/api/practice/merge", { body: { results: [] } })).status).toBe(401);
  });
});

describe("what to practise", () => {
  test("words, with a focus on the weakest jamo", async () => {
    expect(WORDS.length).toBeGreaterThanOrEqual(5_000);
    const plain = await server.api("GET", "/api/practice/words?count=20");
    expect(plain.body.words).toHaveLength(20);
    const focused = await server.api("GET", "/api/practice/words?count=10&focus=ㅃ,ㅖ");
    expect(focused.body.focus).toEqual(["ㅃ", "ㅖ"]);
    for (const word of focused.body.words) expect(jamoKeys(word)).toMatch(/[ㅃㅖ]/);
    const refused = await server.api("GET", "/api/practice/words?focus=zz");
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toBe("알 수 없는 자모나 전환입니다: zz");
  });

  test("long texts, their licences, and the seeded sentences", async () => {
    const catalogue = await server.api("GET", "/api/practice/texts");
    expect(catalogue.body.long.length).toBeGreaterThanOrEqual(10);
    for (const text of catalogue.body.long) {
      expect(text.licence).toContain("퍼블릭 도메인");
      expect(text.paragraphs).toBeGreaterThanOrEqual(3);
    }
    const azaleas = await server.api("GET", "/api/practice/texts/kim-sowol-azaleas");
    expect(azaleas.body).toMatchObject({ title: "진달래꽃", author: "김소월" });
    expect(azaleas.body.paragraphs[0]).toContain("나 보기가 역겨워");
    const missing = await server.api("GET", "/api/practice/texts/nothing");
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe("긴 글을 찾을 수 없습니다.");
    const sentences = await server.api("GET", "/api/practice/sentences?count=5");
    expect(sentences.body.sentences).toHaveLength(5);
    expect((await server.api("GET", "/api/practice/sentences?count=500")).status).toBe(422);
  });
});

describe("layouts", () => {
  /** A 세벌식 summary of `text` typed right, one key every 200 ms. */
  function sebeolsikSummary(text: string, layout: "sebeolsik-390" | "sebeolsik-final") {
    const tally = new KeystrokeTally(layout);
    tally.setTarget(text);
    let value = "";
    Array.from(text).forEach((char, i) => {
      value += char;
      tally.input(value, (i + 1) * 600);
    });
    return tally.summary();
  }
  const layoutOfMember = (user: TestUser | null, method: "GET" | "PUT", body?: unknown) =>
    server.api(method, "/api/practice/layout", { token: user?.token, body });

  test("a 세벌식 result keeps its layout, and each layout has statistics of its own", async () => {
    const user = await server.createUser("세벌식1");
    const summary = sebeolsikSummary("한글 닭", "sebeolsik-390");
    expect(summary.jamo.map((j) => j.jamo)).toContain("ᆫ");
    const stored = await record(user, result({ layout: "sebeolsik-390", summary }));
    expect(stored.status).toBe(200);
    await record(user, result());

    const three = await server.api("GET", "/api/practice/stats?layout=sebeolsik-390", { token: user.token });
    expect(three.body.layout).toBe("sebeolsik-390");
    // ᆫ (the final of 한) and the initial ㅎ are keys of their own; no 도깨비불 in 세벌식.
    const figure = (body: { jamo: { unit: string; hits: number }[] }, unit: string) =>
      body.jamo.find((f) => f.unit === unit)?.hits;
    expect(figure(three.body, "ᆫ")).toBe(1);
    expect(figure(three.body, "ㄴ")).toBe(0);
    expect(figure(three.body, "ㅃ")).toBeUndefined();
    expect(three.body.transitions.map((t: { unit: string }) => t.unit)).toEqual(["double_final", "shift"]);
    expect(three.body.transitions[0]).toMatchObject({ unit: "double_final", hits: 1 });

    // The 두벌식 statistics hold only the 두벌식 result (가나 빵), and the 최종's nothing.
    const two = (await stats(user)).jamo;
    expect(two.find((f: { unit: string }) => f.unit === "ㅃ").hits).toBe(1);
    expect(two.find((f: { unit: string }) => f.unit === "ㅎ").hits).toBe(0);
    const final = await server.api("GET", "/api/practice/stats?layout=sebeolsik-final", { token: user.token });
    expect(final.body.jamo.every((f: { hits: number }) => f.hits === 0)).toBe(true);
  });

  test("the member's layout is remembered and is the statistics' default", async () => {
    const user = await server.createUser("세벌식2");
    expect((await layoutOfMember(user, "GET")).body).toEqual({ layout: "dubeolsik" });
    expect((await layoutOfMember(user, "PUT", { layout: "sebeolsik-final" })).body).toEqual({
      layout: "sebeolsik-final",
    });
    expect((await layoutOfMember(user, "GET")).body).toEqual({ layout: "sebeolsik-final" });
    expect((await stats(user)).layout).toBe("sebeolsik-final");
    const other = await server.createUser("세벌식3");
    expect((await layoutOfMember(other, "GET")).body).toEqual({ layout: "dubeolsik" });
  });

  test("refusals: an unknown layout (400, in Korean), a unit of another layout, a guest", async () => {
    const user = await server.createUser("세벌식4");
    for (const answer of [
      await layoutOfMember(user, "PUT", { layout: "qwerty" }),
      await server.api("GET", "/api/practice/stats?layout=qwerty", { token: user.token }),
      await server.api("GET", "/api/practice/words?layout=dvorak&focus=ㄱ"),
    ]) {
      expect(answer.status).toBe(400);
      expect(answer.body.detail).toContain("알 수 없는 자판입니다");
    }
    expect((await layoutOfMember(user, "GET")).body).toEqual({ layout: "dubeolsik" });
    // A 세벌식 final in a 두벌식 summary, 도깨비불 in a 세벌식 one.
    const foreign = await record(
      user,
      result({ summary: { ...summaryOf("가"), jamo: [{ jamo: "ᆨ", hits: 1, errors: 0, time_ms: 0, timed: 0 }] } }),
    );
    expect(foreign.status).toBe(422);
    expect(foreign.body.detail).toBe("두벌식 자판에 없는 자모나 전환입니다: ᆨ");
    const dokkaebi = await record(
      user,
      result({
        layout: "sebeolsik-390",
        summary: {
          layout: "sebeolsik-390",
          jamo: [],
          transitions: [{ kind: "dokkaebi", hits: 1, errors: 0, time_ms: 0, timed: 0 }],
          corrections: 0,
        },
      }),
    );
    expect(dokkaebi.status).toBe(422);
    expect((await layoutOfMember(null, "GET")).status).toBe(401);
    expect((await layoutOfMember(null, "PUT", { layout: "sebeolsik-390" })).status).toBe(401);
  });

  test("맞춤 연습's words read the focus on the layout asked", async () => {
    const words = await server.api("GET", "/api/practice/words?layout=sebeolsik-390&focus=ᆻ&count=5");
    expect(words.status).toBe(422);
    const finals = await server.api(
      `GET`,
      `/api/practice/words?layout=sebeolsik-390&focus=${encodeURIComponent("ᆼ")}&count=5`,
    );
    expect(finals.status).toBe(200);
    expect(
      finals.body.words.every((w: string) => Array.from(w).some((c) => (c.codePointAt(0)! - 0xac00) % 28 === 21)),
    ).toBe(true);
    expect((await server.api("GET", "/api/practice/words?focus=ᆼ")).status).toBe(422);
  });
});

test("the whole word list, for 맞춤 연습 offline", async () => {
  const list = await server.api("GET", "/api/practice/word-list");
  expect(list.status).toBe(200);
  expect(list.body.words).toEqual([...WORDS]);
  expect(list.body.words.length).toBeGreaterThan(5_000);
});
