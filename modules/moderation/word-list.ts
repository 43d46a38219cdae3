import { type Actor, adminApi } from "../admin";
import type { ModuleContext } from "../kernel/define-module";
import { badRequest, conflict, notFound } from "../kernel/errors";
import { setTextFilter, type TextFilter, type TextKind } from "../kernel/speech";
import fileText from "./data/profanity-ko.txt" with { type: "text" };
import { normalizeListWord, ProfanityFilter, parseWordList, type WordList } from "./profanity";
import { checkListWord, MODERATION_MSG } from "./rules";
import type { WordRow } from "./schema";
import { type ModerationStore, moderationStoreOf } from "./store";

/** The maintained list (data/profanity-ko.txt, ours, CC0): words and the exceptions no administrator edits. */
export const FILE_LIST: WordList = parseWordList(fileText);
const FILE_WORDS = new Set(FILE_LIST.words);

/** The admin log's actions of the list (admin/labels.ts names them in Korean). */
export const WORD_LOG_ACTIONS = { add: "profanity_add", remove: "profanity_remove" } as const;

const REFUSALS: Record<TextKind, string> = {
  post: MODERATION_MSG.profanePost,
  username: MODERATION_MSG.profaneUsername,
  guild_name: MODERATION_MSG.profaneGuildName,
};

/** The list in force: the data file's words, plus the words administrators added, less those they removed. */
export function listInForce(changes: readonly WordRow[]): WordList {
  const removed = new Set(changes.filter((row) => row.action === "remove").map((row) => row.word));
  const added = changes.filter((row) => row.action === "add").map((row) => row.word);
  const words = [...FILE_LIST.words.filter((word) => !removed.has(word)), ...added];
  return { words: [...new Set(words)], exceptions: FILE_LIST.exceptions };
}

/**
 * This process's filter (kernel speech.ts `TextFilter`), built from the list in force. A server reads the
 * administrators' changes with its mutes (enforcement.ts: at boot, after its own change, on another process's
 * `moderation:changed` and every `MUTES_POLL_MS`); the CLI reads them before its first check. The filter is rebuilt
 * only when the changes did change. Before the first read it holds the data file's list.
 */
export class ProfanityBook implements TextFilter {
  private filter = new ProfanityFilter(FILE_LIST);
  private signature: string | null = null;

  constructor(private readonly store: ModerationStore) {}

  mask(text: string) {
    return this.filter.mask(text);
  }

  async refusal(kind: TextKind, texts: readonly string[]) {
    if (this.signature === null) await this.read();
    return texts.some((text) => this.filter.contains(text)) ? badRequest(REFUSALS[kind], "profanity") : null;
  }

  async read() {
    const changes = await this.store.wordChanges();
    const signature = changes.map((row) => `${row.action}:${row.word}`).join("\n");
    if (signature === this.signature) return;
    this.filter = new ProfanityFilter(listInForce(changes));
    this.signature = signature;
  }
}

const books = new WeakMap<ModuleContext, ProfanityBook>();

/** This context's profanity book, registered as the kernel's text filter the first time it is asked for. */
export function profanityBookOf(ctx: ModuleContext): ProfanityBook {
  let book = books.get(ctx);
  if (!book) {
    book = new ProfanityBook(moderationStoreOf(ctx.database));
    books.set(ctx, book);
    setTextFilter(ctx, book);
  }
  return book;
}

export interface WordEntry {
  word: string;
  /** `file`: the data file's; `admin`: added by an administrator. */
  source: "file" | "admin";
  by: string | null;
  at: string | null;
}

/**
 * The administrators' side of the list (README "Profanity filter"): what is in force and what was removed, adding
 * and removing a word. Each change and its admin log row are one transaction; `changed` then spreads it (this
 * process's book first, the other processes through the mute book's channel).
 */
export function wordListService(ctx: ModuleContext, changed: () => Promise<void>) {
  const store = moderationStoreOf(ctx.database);
  const now = () => new Date(ctx.clock.now());

  async function list() {
    const changes = await store.wordChanges();
    const decided = new Map(changes.map((row) => [row.word, row]));
    const entry = (word: string): WordEntry => {
      const row = decided.get(word);
      return row?.action === "add"
        ? { word, source: FILE_WORDS.has(word) ? "file" : "admin", by: row.byName, at: row.createdAt.toISOString() }
        : { word, source: "file", by: null, at: null };
    };
    const removed = changes
      .filter((row) => row.action === "remove")
      .map((row): WordEntry => ({ word: row.word, source: "file", by: row.byName, at: row.createdAt.toISOString() }));
    const words = listInForce(changes).words.map(entry);
    return { words, removed, total: words.length };
  }

  async function record(actor: Actor, word: string, action: "add" | "remove", apply: () => Promise<void>) {
    await store.transaction(async () => {
      await apply();
      await adminApi(ctx).writeLog(actor, WORD_LOG_ACTIONS[action], null, { word });
    });
    await changed();
  }

  async function add(actor: Actor, raw: string) {
    const problem = checkListWord(raw);
    if (problem) throw badRequest(problem);
    const word = normalizeListWord(raw);
    const inForce = new Set(listInForce(await store.wordChanges()).words);
    if (inForce.has(word)) throw conflict(MODERATION_MSG.wordListed);
    // A word of the data file that was removed comes back by forgetting its removal.
    await record(actor, word, "add", () =>
      FILE_WORDS.has(word)
        ? store.forgetWord(word)
        : store.setWord({ word, action: "add", byId: actor.id, byName: actor.username, createdAt: now() }),
    );
    return { detail: MODERATION_MSG.wordAdded, word };
  }

  async function remove(actor: Actor, raw: string) {
    const word = normalizeListWord(raw);
    const inForce = new Set(listInForce(await store.wordChanges()).words);
    if (!inForce.has(word)) throw notFound(MODERATION_MSG.wordNotListed);
    await record(actor, word, "remove", () =>
      FILE_WORDS.has(word)
        ? store.setWord({ word, action: "remove", byId: actor.id, byName: actor.username, createdAt: now() })
        : store.forgetWord(word),
    );
    return { detail: MODERATION_MSG.wordRemoved, word };
  }

  return { list, add, remove };
}
