import { describe, expect, test } from "bun:test";
import { VIEW_WINDOW_MS, viewerKey } from "./viewers";

describe("viewer key", () => {
  const visit = (agent: string) => new Request("http://127.0.0.1/", { headers: { "user-agent": agent } });

  test("a logged-in viewer is their user id; anyone else a hash of address and browser", () => {
    expect(viewerKey(7, visit("A"), null, null)).toBe("u:7");
    const anonymous = viewerKey(null, visit("A"), null, null);
    expect(anonymous).toMatch(/^a:[\w-]{32}$/);
    expect(viewerKey(undefined, visit("A"), null, null)).toBe(anonymous);
    expect(viewerKey(null, visit("B"), null, null)).not.toBe(anonymous);
    expect(VIEW_WINDOW_MS).toBe(10 * 60 * 1000);
  });
});
