/**
 * Shared set-up for browser tests: a real server (startTestServer, temp SQLite, serving dist/web) and Debian
 * Chromium driven by playwright-core. Other areas' e2e files reuse these helpers:
 *
 *   const e2e = await startE2E();                 // in beforeAll
 *   const page = await e2e.newPage();             // desktop; e2e.newPage({ width: 375, height: 740 }) for a phone
 *   const user = await e2e.createUser();          // registered through the API
 *   await signIn(page, e2e.url, user);            // through the login form
 *   await e2e.stop();                             // in afterAll
 *
 * The web app must be built first (`bun scripts/build-web.ts`); a missing build is built once here.
 */
import { expect } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, type CDPSession, chromium, type Page } from "playwright-core";
import { startTestServer, type TestServer, type TestServerOptions } from "../apps/server/testing";
import { accountsApi } from "../modules/accounts";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 375, height: 740 } as const;

/**
 * Playwright in-process hands every protocol message to `setImmediate`; under Bun those callbacks do not always
 * run in the order they were queued, so an event for a page's WebSocket can arrive before the WebSocket object
 * exists ("Cannot find object to frameReceived: ws@…"), which breaks the whole browser connection. One FIFO queue
 * drained by a single pending immediate keeps the order.
 */
function keepPlaywrightMessagesInOrder() {
  // biome-ignore lint/suspicious/noExplicitAny: private in-process connection objects of playwright-core
  const client = (chromium as any)._connection;
  const server = client?.toImpl?.(client);
  if (!server || client.__fifo) return;
  client.__fifo = true;
  const queue: (() => void)[] = [];
  let pending = false;
  const drain = () => {
    pending = false;
    for (const task of queue.splice(0)) {
      try {
        task();
      } catch (error) {
        // As before: a failing message surfaces as an uncaught error without dropping the ones after it.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  };
  const enqueue = (task: () => void) => {
    queue.push(task);
    if (!pending) {
      pending = true;
      setImmediate(drain);
    }
  };
  server.onmessage = (message: unknown) => enqueue(() => client.dispatch(message));
  client.onmessage = (message: unknown) => enqueue(() => server.dispatch(message));
}

export function launchBrowser(): Promise<Browser> {
  keepPlaywrightMessagesInOrder();
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

async function ensureWebBuild() {
  if (existsSync(join(import.meta.dir, "../dist/web/index.html"))) return;
  const { buildWeb } = await import("../scripts/build-web");
  await buildWeb();
}

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
}

let userCounter = 0;
/** A unique valid username (≤ 12 characters, letters and digits) and e-mail. */
export function uniqueUser(prefix = "e2e"): Omit<TestUser, "id"> {
  userCounter++;
  const tag = `${Date.now().toString(36).slice(-4)}${userCounter}`;
  const username = `${prefix}${tag}`.slice(0, 12);
  return { username, email: `user${tag}@example.com`, password: `Tj-${crypto.randomUUID().slice(0, 12)}` };
}

export interface E2E {
  server: TestServer;
  browser: Browser;
  url: string;
  /** A fresh browser context (own storage and cookies) with one page; closed by `stop`. */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  createUser(overrides?: Partial<Omit<TestUser, "id">>): Promise<TestUser>;
  /** The accounts service of the running server (setAdmin, requirePasswordReset, …). */
  accounts(): ReturnType<typeof accountsApi>["service"];
  stop(): Promise<void>;
}

/** A browser and a test server; `options` go to startTestServer (e.g. a module list with short game phases). */
export async function startE2E(options: TestServerOptions = {}): Promise<E2E> {
  await ensureWebBuild();
  const server = await startTestServer(options);
  const browser = await launchBrowser();
  const contexts: BrowserContext[] = [];
  return {
    server,
    browser,
    url: server.url,
    async newPage(viewport = DESKTOP) {
      // The app's service worker would answer the page's requests from its cache (and hide them from page.route):
      // the pages are tested against the server; e2e/offline.test.ts tests the worker in contexts of its own.
      const context = await browser.newContext({ viewport, locale: "ko-KR", serviceWorkers: "block" });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      return page;
    },
    async createUser(overrides = {}) {
      const input = { ...uniqueUser(), ...overrides };
      const { status, body } = await server.api("POST", "/api/users/register", { body: input });
      if (status !== 201) throw new Error(`register failed: ${status} ${JSON.stringify(body)}`);
      return { ...input, id: body.id };
    },
    accounts: () => accountsApi(server.ctx).service,
    async stop() {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close().catch(() => {});
      await server.stop();
    },
  };
}

const trafficOf = new WeakMap<Page, string[]>();

/**
 * Keeps a page's last 200 socket frames and console lines, for `explainTimeout`: when a wait fails, the test says
 * what the page sent and received (an answer never sent, refused, or taken as chat) instead of only "timeout".
 */
export function recordTraffic(page: Page) {
  const lines: string[] = [];
  const started = Date.now();
  const keep = (line: string) => {
    lines.push(`${Date.now() - started} ms ${line.slice(0, 300)}`);
    if (lines.length > 200) lines.shift();
  };
  page.on("console", (message) => keep(`console.${message.type()} ${message.text()}`));
  page.on("websocket", (socket) => {
    socket.on("framesent", (frame) => keep(`> ${String(frame.payload)}`));
    socket.on("framereceived", (frame) => keep(`< ${String(frame.payload)}`));
  });
  trafficOf.set(page, lines);
}

/** `wait`, or its error with the recorded traffic of `pages` (`recordTraffic`) appended. */
export async function explainTimeout<T>(pages: Page[], wait: Promise<T>): Promise<T> {
  try {
    return await wait;
  } catch (error) {
    const traffic = pages.map((page, i) => `page ${i + 1}:\n${(trafficOf.get(page) ?? []).join("\n")}`);
    throw new Error(`${(error as Error).message}\n\nWhat the pages sent and received last:\n${traffic.join("\n\n")}`);
  }
}

/** Logs in through the /login form and waits for the home page. */
export async function signIn(page: Page, url: string, user: Pick<TestUser, "email" | "password">, remember = false) {
  await page.goto(`${url}/login`);
  await page.getByLabel("이메일").fill(user.email);
  await page.getByLabel("비밀번호", { exact: true }).fill(user.password);
  if (remember) await page.getByLabel("로그인 상태 유지 (30일)").check();
  await page.getByRole("button", { name: "로그인", exact: true }).click();
  await page.waitForURL(`${url}/`);
}

/**
 * The page's title becomes `expected`: pages load with their route (lazy chunks), so the title is set a moment
 * after the navigation's load event. Waits up to the page's default timeout, then compares what is there.
 */
export async function expectTitle(page: Page, expected: string) {
  await page.waitForFunction((title) => document.title === title, expected).catch(() => {});
  expect(await page.title()).toBe(expected);
}

/** Reads a localStorage key of the page's origin. */
/** The navbar's 로그인 link (the home page has another one, in the private rooms' section). */
export const navbarLogin = (page: Page) =>
  page.getByRole("navigation", { name: "주 메뉴" }).getByRole("link", { name: "로그인", exact: true });

export const storedItem = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key);

/** The page is wider than its viewport (a horizontal scrollbar on a phone). */
export const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** Opens the phone menu when the toggle is visible (narrow viewports fold the navbar links into it). */
export async function openMenuIfFolded(page: Page) {
  const toggle = page.getByRole("button", { name: "메뉴 열기" });
  if (await toggle.isVisible()) await toggle.click();
}

// --- typing as a Korean player does (IME composition through the Chrome DevTools Protocol) ----------------------

const INITIAL_JAMO = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ";
const isSyllable = (char: string) => char >= "가" && char <= "힣";
const isJamo = (char: string) => char >= "ㄱ" && char <= "ㅣ";

/** What an IME shows while a syllable is typed: 북 → ㅂ, 부, 북 (a jamo is its own only stage). */
export function compositionStages(char: string): string[] {
  if (!isSyllable(char)) return [char];
  const code = char.charCodeAt(0) - 0xac00;
  const initial = INITIAL_JAMO[Math.floor(code / 588)];
  const open = String.fromCharCode(0xac00 + code - (code % 28));
  return code % 28 === 0 ? [initial, open] : [initial, open, char];
}

const cdpSessions = new WeakMap<Page, Promise<CDPSession>>();
/** The page's DevTools session (one per page). */
export function cdp(page: Page): Promise<CDPSession> {
  let session = cdpSessions.get(page);
  if (!session) {
    session = page.context().newCDPSession(page);
    cdpSessions.set(page, session);
  }
  return session;
}

/**
 * Sums the page's layout shifts (the Layout Instability API, as Lighthouse's CLS counts them: shifts right after
 * an input excluded) from the start of the document; read with `window.layoutShift`.
 */
export async function recordLayoutShift(page: Page) {
  await page.addInitScript(() => {
    const state = { total: 0 };
    Object.assign(window, { layoutShift: state });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) state.total += entry.value;
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/** The layout shift summed since `recordLayoutShift`. */
export const layoutShift = (page: Page) =>
  page.evaluate(() => (window as unknown as { layoutShift: { total: number } }).layoutShift.total);

/** Two animation frames: what the page drew before this is on screen. */
export const twoFrames = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/** Requests matching `url` wait until the returned function is called (a slow network for that call). */
export async function holdRequests(page: Page, url: string | RegExp) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/**
 * What the server sends over the page's socket.io WebSocket waits until the returned function is called (a slow
 * network for the real-time connection); what the page sends goes through at once.
 */
export async function holdSocketFrames(page: Page) {
  let held: (() => void)[] | null = [];
  await page.routeWebSocket(/\/socket\.io\//, (socket) => {
    const server = socket.connectToServer();
    socket.onMessage((message) => server.send(message));
    server.onMessage((message) => {
      if (held) held.push(() => socket.send(message));
      else socket.send(message);
    });
  });
  return () => {
    const frames = held ?? [];
    held = null;
    for (const send of frames) send();
  };
}

/** Shows `text` as the IME's composition in the focused field (`Input.imeSetComposition`). */
export async function imeCompose(page: Page, text: string) {
  const length = [...text].length;
  await (await cdp(page)).send("Input.imeSetComposition", { text, selectionStart: length, selectionEnd: length });
}

/** Commits the composition as `text` (or inserts `text` when nothing is composing): `Input.insertText`. */
export async function imeCommit(page: Page, text: string) {
  await (await cdp(page)).send("Input.insertText", { text });
}

/**
 * Types `text` into the focused field the way a Korean IME delivers it, never with `fill`: each Hangul syllable
 * (or lone jamo) is composed stage by stage and then committed; anything else (spaces, digits, punctuation) is
 * inserted. With `leaveLast` the last syllable stays in composition, as when the player presses Space or Enter
 * right after typing it. `pauseMs` between characters (a human pace).
 */
export async function imeType(page: Page, text: string, { leaveLast = false, pauseMs = 0 } = {}) {
  const chars = [...text];
  for (const [i, char] of chars.entries()) {
    if (isSyllable(char) || isJamo(char)) {
      for (const stage of compositionStages(char)) await imeCompose(page, stage);
      if (!(leaveLast && i === chars.length - 1)) await imeCommit(page, char);
    } else {
      await imeCommit(page, char);
    }
    if (pauseMs > 0) await page.waitForTimeout(pauseMs);
  }
}

/**
 * A key pressed while the IME may still be composing, as Chrome sends it: a keydown with keyCode 229 (`isComposing`
 * while a composition runs). The key's own character, if any, is then inserted by the caller (`imeCommit`), after
 * the commit, in whichever order the browser being imitated uses.
 */
export async function imeKeyDown(page: Page, key: " " | "Enter") {
  const code = key === " " ? "Space" : "Enter";
  const session = await cdp(page);
  await session.send("Input.dispatchKeyEvent", { type: "rawKeyDown", key, code, windowsVirtualKeyCode: 229 });
  await session.send("Input.dispatchKeyEvent", { type: "keyUp", key, code, windowsVirtualKeyCode: 229 });
}
