import { describe, expect, test } from "bun:test";
import { ignoresQuery, strategyFor } from "./strategy";

const origin = "https://tajamadang.example";
const get = (path: string, mode = "cors") => strategyFor({ method: "GET", mode, url: `${origin}${path}` }, origin);

describe("what the service worker answers", () => {
  test("navigations to client routes get the page (the shell offline); the server's own paths never", () => {
    for (const path of ["/", "/practice", "/rooms/3", "/profile?tab=x"]) expect(get(path, "navigate")).toBe("page");
    for (const path of ["/api/users/me", "/swagger", "/swagger/json", "/socket.io/?EIO=4"])
      expect(get(path, "navigate")).toBeNull();
  });

  test("hashed files are assets; the practice content is content; every other API call and socket.io is left alone", () => {
    expect(get("/assets/index-abc123.js")).toBe("asset");
    expect(get("/assets/fonts/noto-sans-kr-118-400-normal-1.woff2")).toBe("asset");
    for (const path of [
      "/api/practice/texts",
      "/api/practice/texts/kim-sowol-azaleas",
      "/api/practice/words?count=30&focus=%E3%85%83",
      "/api/practice/sentences?count=8",
    ])
      expect(get(path)).toBe("content");
    for (const path of [
      "/api/practice/stats",
      "/api/practice/progress?days=30",
      "/api/practice/goal",
      "/api/practice/summary",
      "/api/rooms",
      "/api/rankings/levels",
      "/api/users/me",
      "/socket.io/?EIO=4&transport=polling",
      "/sw.js",
      "/manifest.webmanifest",
    ])
      expect(get(path)).toBeNull();
  });

  test("writes and other origins go to the network untouched", () => {
    expect(strategyFor({ method: "POST", mode: "cors", url: `${origin}/api/practice/words` }, origin)).toBeNull();
    expect(strategyFor({ method: "GET", mode: "navigate", url: "https://elsewhere.example/" }, origin)).toBeNull();
    expect(
      strategyFor({ method: "GET", mode: "cors", url: "https://elsewhere.example/assets/x.js" }, origin),
    ).toBeNull();
  });

  test("offline, words and sentences come from the sample whatever the query; a 긴 글 by its own URL", () => {
    expect(ignoresQuery("/api/practice/words")).toBeTrue();
    expect(ignoresQuery("/api/practice/sentences")).toBeTrue();
    expect(ignoresQuery("/api/practice/texts/kim-sowol-azaleas")).toBeFalse();
  });
});
