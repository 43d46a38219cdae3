import { readFileSync } from "node:fs";
import { badRequest } from "../kernel/errors";

/** A JSON array of strings, or plain text with one sentence per line. */
export function readSentenceFile(file: string): unknown[] {
  const text = readFileSync(file, "utf8");
  if (file.toLowerCase().endsWith(".json") || text.trimStart().startsWith("[")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw badRequest("JSON 파일을 해석할 수 없습니다.");
    }
    if (!Array.isArray(parsed)) throw badRequest("유효한 문제 목록 형식이 아닙니다. 문자열 배열 형식이어야 합니다.");
    return parsed;
  }
  return text.split(/\r?\n/).filter((line) => line.trim() !== "");
}
