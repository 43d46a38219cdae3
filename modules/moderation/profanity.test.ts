import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ProfanityFilter } from "./profanity";
import { FILE_LIST, listInForce } from "./word-list";

const filter = new ProfanityFilter(FILE_LIST);

describe("the profanity matcher", () => {
  test.each([
    ["시발", "***"],
    ["씨발 진짜", "*** 진짜"],
    ["아 ㅅㅂ", "아 ***"],
    ["ㅆㅂㅋㅋ", "***ㅋㅋ"],
    ["시 발", "***"],
    ["시.발", "***"],
    ["시1발 뭐야", "*** 뭐야"],
    ["시 . 발", "***"],
    ["시\u200b발", "***"],
    ["ㅅㅣㅂㅏㄹ", "***"],
    ["ㅅㅣ ㅂㅏㄹ", "***"],
    ["시ㅂㅏㄹ", "***"],
    ["tlqkf", "***"],
    ["Tlqkf 뭐야", "*** 뭐야"],
    ["ｔｌｑｋｆ", "***"],
    ["ｓｈｉｔ", "***"],
    ["18", "***"],
    ["18!!", "***!!"],
    ["18 18", "*** ***"],
    ["씨18", "***"],
    ["병신아", "***아"],
    ["ㅂㅅ", "***"],
    ["ㅄ", "***"],
    ["qudtls", "***"],
    ["개새끼", "***"],
    ["rotoRl", "***"],
    ["존나 덥다", "*** 덥다"],
    ["좆같네", "***같네"],
    ["이 시발놈아", "이 ***아"],
    ["시 발 놈아", "*** 놈아"],
    ["FUCK this", "*** this"],
    ["좋은 아침 시발 그리고 병신", "좋은 아침 *** 그리고 ***"],
  ])("%p → %p", (line, masked) => {
    expect(filter.mask(line)).toBe(masked);
    expect(filter.contains(line)).toBe(true);
  });

  test("decomposed syllables (NFD) are read as the syllables they spell", () => {
    expect(filter.mask("시발".normalize("NFD"))).toBe("***");
  });

  test.each([
    "시발점부터 다시 생각하자",
    "1905년 시발역",
    "수박씨발라먹기",
    "수박씨 발라 먹기",
    "오후 세 시 발표가 있다",
    "씨 발아 실험을 했다",
    "18살 때 처음 타자를 배웠다",
    "2018년 여름",
    "오후 6시 18분",
    "줄 18",
    "아 18",
    "18 대 3으로 이겼다",
    "18년 동안 살았다",
    "새끼손가락을 걸고 약속했다",
    "영향을 미친 요인",
    "꿈을 좇다",
    "보지 않았다",
    "시바견이 귀엽다",
    "The quick brown fox jumps over the lazy dog",
    "qt pie and mc hammer",
    "rotor blade",
    "shitake mushrooms",
    "ㅋㅋㅋ ㅎㅎ ㅇㅇ",
  ])("%p is left as it is", (line) => {
    expect(filter.mask(line)).toBe(line);
    expect(filter.contains(line)).toBe(false);
  });

  test("no seeded typing sentence is touched", () => {
    const dir = join(import.meta.dir, "../rooms/data/sentences");
    const sentences = readdirSync(dir)
      .filter((name) => name.endsWith(".json"))
      .flatMap((name) => JSON.parse(readFileSync(join(dir, name), "utf8")) as string[]);
    expect(sentences.length).toBeGreaterThan(100);
    expect(sentences.filter((sentence) => filter.contains(sentence))).toEqual([]);
  });

  test("a short word is caught in Korean but not as English keys (ㅅㅂ is 'tq', ㅁㅊ is 'mc')", () => {
    expect(filter.contains("ㅁㅊ")).toBe(true);
    expect(filter.contains("tq mc")).toBe(false);
  });

  test("a word typed on the English layout masks the whole run of letters", () => {
    expect(filter.mask("wow tlqkfshdk ok")).toBe("wow *** ok");
  });

  test("a line without listed words comes back untouched, even when it is not NFC", () => {
    const nfd = "안녕하세요".normalize("NFD");
    expect(filter.mask(nfd)).toBe(nfd);
  });

  test("an empty list masks nothing", () => {
    expect(new ProfanityFilter({ words: [], exceptions: [] }).mask("시발")).toBe("시발");
  });
});

describe("the list in force", () => {
  const at = new Date(0);
  const row = (word: string, action: "add" | "remove") => ({
    word,
    action,
    byId: null,
    byName: "관리자",
    createdAt: at,
  });

  test("adds the administrators' words and leaves out the words they removed", () => {
    const list = listInForce([row("바보", "add"), row("시발", "remove")]);
    expect(list.words).toContain("바보");
    expect(list.words).not.toContain("시발");
    const masked = new ProfanityFilter(list);
    expect(masked.mask("바보 시발")).toBe("*** 시발");
    expect(masked.mask("씨발")).toBe("***");
  });
});

test("Latin runs the 두벌식 reading cannot assemble pass untouched instead of failing", () => {
  expect(filter.mask("nnpq guild")).toBe("nnpq guild");
  expect(filter.contains("nnpq")).toBe(false);
});
