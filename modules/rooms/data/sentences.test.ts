import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

// Bounds are in UTF-16 code units, which equal characters here: every allowed character is in the BMP.
const THEMES = {
  beginner: { min: 8, max: 25, korean: true },
  proverbs: { min: 4, max: 60, korean: true },
  literature: { min: 20, max: 60, korean: true },
  news: { min: 25, max: 70, korean: true },
  free: { min: 10, max: 50, korean: true },
  english: { min: 20, max: 70, korean: false },
} as const;

type Theme = keyof typeof THEMES;

// Only characters a standard 2-set Korean keyboard types directly; no jamo alone, no symbols beyond plain punctuation.
const KOREAN_CHARS = /^[\uAC00-\uD7A3A-Za-z0-9 .,?!'"()\-:;]+$/;
const ENGLISH_CHARS = /^[\x20-\x7E]+$/;

function load(theme: Theme): unknown {
  const text = readFileSync(join(import.meta.dir, "sentences", `${theme}.json`), "utf8");
  return JSON.parse(text);
}

const themes = Object.keys(THEMES) as Theme[];
const corpus = Object.fromEntries(themes.map((t) => [t, load(t)])) as Record<Theme, unknown>;

function sentences(theme: Theme): string[] {
  const value = corpus[theme];
  if (!Array.isArray(value)) throw new Error(`${theme}.json is not an array`);
  return value as string[];
}

describe("sentence corpus", () => {
  for (const theme of themes) {
    const { min, max, korean } = THEMES[theme];

    test(`${theme}.json is an array of non-empty trimmed strings`, () => {
      expect(Array.isArray(corpus[theme])).toBe(true);
      for (const s of sentences(theme)) {
        expect(typeof s).toBe("string");
        expect(s.length).toBeGreaterThan(0);
        expect(s).toBe(s.trim());
        expect(s).not.toMatch(/ {2}/);
      }
    });

    test(`${theme}.json sentences are ${min}–${max} characters`, () => {
      const outside = sentences(theme).filter((s) => s.length < min || s.length > max);
      expect(outside).toEqual([]);
    });

    test(`${theme}.json uses only allowed characters`, () => {
      const pattern = korean ? KOREAN_CHARS : ENGLISH_CHARS;
      const bad = sentences(theme).filter((s) => !pattern.test(s));
      expect(bad).toEqual([]);
    });

    test(`${theme}.json has at least ${korean ? 100 : 60} sentences`, () => {
      expect(sentences(theme).length).toBeGreaterThanOrEqual(korean ? 100 : 60);
    });
  }

  test("no sentence appears twice, within or across files", () => {
    const seen = new Map<string, Theme>();
    const duplicates: string[] = [];
    for (const theme of themes) {
      for (const s of sentences(theme)) {
        const first = seen.get(s);
        if (first) duplicates.push(`${s} (${first}, ${theme})`);
        else seen.set(s, theme);
      }
    }
    expect(duplicates).toEqual([]);
  });

  test("at least 500 Korean sentences and 60 English ones", () => {
    const korean = themes.filter((t) => THEMES[t].korean).reduce((n, t) => n + sentences(t).length, 0);
    expect(korean).toBeGreaterThanOrEqual(500);
    expect(sentences("english").length).toBeGreaterThanOrEqual(60);
  });

  test("Korean sentences contain Hangul", () => {
    const noHangul = themes
      .filter((t) => THEMES[t].korean)
      .flatMap((t) => sentences(t))
      .filter((s) => !/[\uAC00-\uD7A3]/.test(s));
    expect(noHangul).toEqual([]);
  });
});
