import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SqlDatabase } from "../../db/database";
import { badRequest, conflict, notFound } from "../kernel/errors";
import type { RoomRow } from "./schema";
import type { Sentence } from "./sentence-race";
import { roomsStoreOf } from "./store";

export const ROOM_NOT_FOUND = "방을 찾을 수 없습니다.";
export const SENTENCE_MIN = 2;
/** A sentence is typed in one go: longer ones would hit the 60-s game limit at ordinary speeds. */
export const SENTENCE_MAX = 150;
export const ROOM_NAME_MAX = 30;
export const ROOM_DESCRIPTION_MAX = 200;
export const MAX_USERS_RANGE = { min: 2, max: 100 } as const;
const THEME = /^[a-z0-9_-]{1,32}$/;

export const SENTENCE_DATA_DIR = join(import.meta.dir, "data/sentences");

/** The seeded public rooms (product-rules.md: beginner, proverbs, literature, news, English, free). */
export const SEED_ROOMS = [
  {
    name: "초보자 방",
    description: "짧고 쉬운 문장으로 타자 연습을 시작해 보세요.",
    theme: "beginner",
    language: "ko",
  },
  { name: "속담 방", description: "우리 속담을 빠르고 정확하게 입력해 보세요.", theme: "proverbs", language: "ko" },
  { name: "문학 방", description: "문학적인 문장을 음미하며 타자 실력을 겨뤄요.", theme: "literature", language: "ko" },
  { name: "뉴스 방", description: "뉴스 기사 같은 문장으로 실전 타자를 연습해요.", theme: "news", language: "ko" },
  { name: "English Room", description: "영어 문장으로 타자 실력을 겨루는 방입니다.", theme: "english", language: "en" },
  { name: "자유 방", description: "다양한 주제의 문장이 나오는 자유로운 방입니다.", theme: "free", language: "ko" },
] as const;
export const SEED_MAX_USERS = 20;

// --- rooms -----------------------------------------------------------------------------------------------------

export const listRoomRows = (database: SqlDatabase): Promise<RoomRow[]> => roomsStoreOf(database).listRooms();
export const findRoomRow = (database: SqlDatabase, id: number): Promise<RoomRow | undefined> =>
  roomsStoreOf(database).findRoom(id);

export async function requireRoomRow(database: SqlDatabase, id: number): Promise<RoomRow> {
  const row = await findRoomRow(database, id);
  if (!row) throw notFound(ROOM_NOT_FOUND, "room_not_found");
  return row;
}

export interface CreateRoomInput {
  name: string;
  description?: string;
  maxUsers?: number;
  theme: string;
  language?: string;
}

export async function createRoom(database: SqlDatabase, input: CreateRoomInput): Promise<RoomRow> {
  const name = input.name.normalize("NFC").trim();
  const description = (input.description ?? "").normalize("NFC").trim();
  const maxUsers = input.maxUsers ?? SEED_MAX_USERS;
  if (!name || [...name].length > ROOM_NAME_MAX) throw badRequest(`방 이름은 1~${ROOM_NAME_MAX}자여야 합니다.`);
  if ([...description].length > ROOM_DESCRIPTION_MAX) {
    throw badRequest(`방 설명은 ${ROOM_DESCRIPTION_MAX}자 이하여야 합니다.`);
  }
  if (!Number.isInteger(maxUsers) || maxUsers < MAX_USERS_RANGE.min || maxUsers > MAX_USERS_RANGE.max) {
    throw badRequest(`최대 인원은 ${MAX_USERS_RANGE.min}~${MAX_USERS_RANGE.max}명이어야 합니다.`);
  }
  if (!THEME.test(input.theme)) throw badRequest("문장 주제는 영문 소문자, 숫자, -, _ 로 1~32자여야 합니다.");
  const row = await roomsStoreOf(database).createRoom({
    name,
    description,
    maxUsers,
    theme: input.theme,
    language: input.language ?? "ko",
  });
  if (row === "taken") throw conflict("이미 같은 이름의 방이 있습니다.");
  return row;
}

// --- sentences -------------------------------------------------------------------------------------------------

/** NFC, ends trimmed, inner whitespace runs collapsed to one space (a double space is no fair test). */
export const cleanSentence = (text: string) => text.normalize("NFC").replace(/\s+/g, " ").trim();

function isValidSentence(text: string) {
  const length = [...text].length;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  return length >= SENTENCE_MIN && length <= SENTENCE_MAX && !/[\u0000-\u001f\u007f]/.test(text);
}

export interface ImportCounts {
  theme: string;
  inserted: number;
  /** Already in the theme (or repeated in the input). */
  duplicates: number;
  /** Not a string, too short, too long or with control characters. */
  invalid: number;
}

/** Resolves a theme name or a room id (the room's theme). */
export async function resolveTheme(database: SqlDatabase, target: string | number): Promise<string> {
  if (typeof target === "number" || /^[0-9]+$/.test(target))
    return (await requireRoomRow(database, Number(target))).theme;
  if (!THEME.test(target)) throw badRequest("문장 주제는 영문 소문자, 숫자, -, _ 로 1~32자여야 합니다.");
  return target;
}

/** Adds sentences to a theme; idempotent (a text already in the theme is skipped). One transaction. */
export async function importSentences(
  database: SqlDatabase,
  target: string | number,
  texts: readonly unknown[],
  source = "import",
): Promise<ImportCounts> {
  const theme = await resolveTheme(database, target);
  const counts: ImportCounts = { theme, inserted: 0, duplicates: 0, invalid: 0 };
  const unique = new Set<string>();
  for (const raw of texts) {
    const text = typeof raw === "string" ? cleanSentence(raw) : "";
    if (!isValidSentence(text)) counts.invalid++;
    else if (unique.has(text)) counts.duplicates++;
    else unique.add(text);
  }
  counts.inserted = await roomsStoreOf(database).insertSentences(theme, [...unique], source);
  counts.duplicates += unique.size - counts.inserted;
  return counts;
}

/** A theme's sentences, by id. */
export const loadSentencePool = (database: SqlDatabase, theme: string): Promise<Sentence[]> =>
  roomsStoreOf(database).sentencePool(theme);

/** Sentences per theme, themes in code point order. */
export const sentenceCounts = (database: SqlDatabase) => roomsStoreOf(database).sentenceCounts();

/** Reads `<theme>.json` (an array of strings) from the corpus folder; a missing or broken file gives []. */
export function readCorpusFile(theme: string, folder = SENTENCE_DATA_DIR): unknown[] {
  const file = join(folder, `${theme}.json`);
  if (!existsSync(file)) return [];
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8"));
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** Idempotent seed: the public rooms (by name) and the corpus of each room theme. */
export async function seedRoomsAndSentences(database: SqlDatabase, folder = SENTENCE_DATA_DIR) {
  await roomsStoreOf(database).addRoomsByName(SEED_ROOMS.map((room) => ({ ...room, maxUsers: SEED_MAX_USERS })));
  const counts: ImportCounts[] = [];
  for (const room of SEED_ROOMS) {
    counts.push(await importSentences(database, room.theme, readCorpusFile(room.theme, folder), "corpus"));
  }
  return counts;
}
