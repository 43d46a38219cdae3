import { afterEach, beforeEach, describe, expect, jest, test } from "bun:test";
import { afterFirstLoad, SETTLE_AFTER_LOAD_MS } from "./after-first-load";

/** A page still loading: its `load` listeners and idle callbacks are kept to be fired by the test. */
function loadingPage() {
  const page = {
    readyState: "loading" as DocumentReadyState,
    loadListeners: [] as (() => void)[],
    idleCallbacks: [] as (() => void)[],
    load() {
      page.readyState = "complete";
      for (const listener of page.loadListeners.splice(0)) listener();
    },
    idle() {
      for (const callback of page.idleCallbacks.splice(0)) callback();
    },
  };
  Object.assign(globalThis, {
    document: {
      get readyState() {
        return page.readyState;
      },
    },
    window: {
      addEventListener: (type: string, listener: () => void) => type === "load" && page.loadListeners.push(listener),
      requestIdleCallback: (callback: () => void) => page.idleCallbacks.push(callback),
    },
  });
  return page;
}

describe("afterFirstLoad", () => {
  const saved = { window: globalThis.window, document: globalThis.document };
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.useRealTimers();
    Object.assign(globalThis, saved);
  });

  test("waits for the load event, the settling time and an idle moment, in that order", () => {
    const page = loadingPage();
    const ran: string[] = [];
    afterFirstLoad(() => ran.push("task"));
    page.idle();
    jest.advanceTimersByTime(SETTLE_AFTER_LOAD_MS * 2);
    expect(ran).toEqual([]);

    page.load();
    page.idle();
    jest.advanceTimersByTime(SETTLE_AFTER_LOAD_MS - 1);
    page.idle();
    expect(ran).toEqual([]);

    jest.advanceTimersByTime(1);
    expect(ran).toEqual([]);
    page.idle();
    expect(ran).toEqual(["task"]);
  });

  test("on a page already loaded, the settling time and an idle moment", () => {
    const page = loadingPage();
    page.load();
    const ran: string[] = [];
    afterFirstLoad(() => ran.push("task"));
    page.idle();
    expect(ran).toEqual([]);
    jest.advanceTimersByTime(SETTLE_AFTER_LOAD_MS);
    page.idle();
    expect(ran).toEqual(["task"]);
  });
});
