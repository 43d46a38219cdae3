/**
 * What there is to practise besides the 자리 연습 drills (built by the web from the layout): the word list of 낱말
 * 연습 and 맞춤 연습, the long texts of 긴 글 (data/README.md says where each comes from and under which licence),
 * and the seeded sentences of 짧은 글 (rooms' corpus, through its index).
 */
import type { Random } from "../kernel/clock";
import type { ModuleContext } from "../kernel/define-module";
import { notFound } from "../kernel/errors";
import { sentencesOfThemes } from "../rooms";
import longTexts from "./data/long-texts.json";
import wordList from "./data/words.txt" with { type: "text" };
import { focusScore } from "./keystroke-model";
import type { Layout } from "./layouts";

export interface LongText {
  id: string;
  title: string;
  author: string;
  /** First published. */
  year: number;
  /** Why it is in the public domain (the author's death and the law). */
  licence: string;
  /** The edition it was checked against. */
  source: string;
  paragraphs: string[];
}

export const WORDS: readonly string[] = wordList.split("\n").filter((word) => word.length > 0);
export const LONG_TEXTS: readonly LongText[] = longTexts;

const byId = new Map(LONG_TEXTS.map((text) => [text.id, text]));

export const TEXT_NOT_FOUND = "긴 글을 찾을 수 없습니다.";

export function longText(id: string): LongText {
  const text = byId.get(id);
  if (!text) throw notFound(TEXT_NOT_FOUND);
  return text;
}

/** The catalogue of 긴 글: everything but the paragraphs themselves. */
export const longTextCatalogue = () =>
  LONG_TEXTS.map(({ paragraphs, ...about }) => ({
    ...about,
    paragraphs: paragraphs.length,
    characters: paragraphs.reduce((n, p) => n + Array.from(p).length, 0),
  }));

/** `count` different items drawn at random (all of them when there are fewer). */
function sample<T>(items: readonly T[], count: number, random: Random): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < count && pool.length > 0) {
    const i = Math.floor(random.next() * pool.length);
    out.push(pool[i]!);
    pool[i] = pool[pool.length - 1]!;
    pool.pop();
  }
  return out;
}

/**
 * Words to type. With a focus (jamo, "space" or transitions), words drilling it are drawn first, each with a
 * chance in proportion to how much of it it holds (`focusScore`), so the weakest jamo come up again and again
 * while the words stay varied; the rest of the count is filled at random.
 */
export function pickWords(
  random: Random,
  count: number,
  focus: readonly string[] = [],
  layout: Layout = "dubeolsik",
): string[] {
  if (focus.length === 0) return sample(WORDS, count, random);
  const units = new Set(focus);
  const weighted = WORDS.map((word) => ({ word, weight: focusScore(word, units, layout) })).filter((w) => w.weight > 0);
  const picked: string[] = [];
  let total = weighted.reduce((n, w) => n + w.weight, 0);
  while (picked.length < count && weighted.length > 0) {
    let target = random.next() * total;
    let i = 0;
    while (i < weighted.length - 1 && target >= weighted[i]!.weight) target -= weighted[i++]!.weight;
    const [chosen] = weighted.splice(i, 1);
    total -= chosen!.weight;
    picked.push(chosen!.word);
  }
  const rest = WORDS.filter((word) => !picked.includes(word));
  return [...picked, ...sample(rest, count - picked.length, random)];
}

/** The Korean themes of the seeded sentences (the English room's are not 두벌식 practice). */
const SENTENCE_THEMES = ["proverbs", "literature", "news", "free", "beginner"] as const;

/** Seeded sentences drawn at random for 짧은 글. */
export async function pickSentences(ctx: ModuleContext, count: number) {
  const pool = await sentencesOfThemes(ctx, SENTENCE_THEMES);
  return sample(pool, count, ctx.random).map((s) => ({ id: s.id, text: s.text }));
}
