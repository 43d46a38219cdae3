import { userInfo } from "node:os";
import type { Command } from "commander";
import { badRequest } from "./errors";
import { seoulDateTime } from "./seoul-time";

/** The program's global options (`--json`, `--as`), read from any sub-command. */
export function globalOptions(command: Command): { json: boolean; as?: string } {
  const options = command.optsWithGlobals() as { json?: boolean; as?: string };
  return { json: options.json === true, as: options.as };
}

const OPERATOR_MAX = 64;

/**
 * The name written to the admin log for a CLI action: `--as <name>` or the OS user, always prefixed `cli:` so
 * a log reader never mistakes it for a web account of the same name.
 */
export function operatorName(command: Command): string {
  const given = globalOptions(command).as?.trim();
  if (given !== undefined && (given.length === 0 || given.length > OPERATOR_MAX)) {
    throw badRequest(`--as 이름은 1~${OPERATOR_MAX}자여야 합니다.`);
  }
  const name = given || osUser();
  return name.startsWith("cli:") ? name : `cli:${name}`;
}

/**
 * Containers often run as a uid without a passwd entry: libuv then reports "unknown" (or throws); the shell may
 * know better, and failing that the uid itself says who acted (`uid-1000`), where "unknown" would say nothing.
 */
function osUser(): string {
  let name: string | undefined;
  try {
    name = userInfo().username;
  } catch {}
  if (!name || name === "unknown") name = process.env.USER || process.env.LOGNAME || undefined;
  const uid = process.getuid?.();
  return name || (uid === undefined ? "unknown" : `uid-${uid}`);
}

export const printJson = (value: unknown) => console.log(JSON.stringify(value, null, 2));

const width = (text: string) => Bun.stringWidth(text);
const pad = (text: string, size: number, right: boolean) => {
  const fill = " ".repeat(Math.max(0, size - width(text)));
  return right ? fill + text : text + fill;
};

export interface Column<Row> {
  header: string;
  value: (row: Row) => string | number | boolean | null | undefined;
  /** Numbers read better right-aligned. */
  align?: "left" | "right";
}

/** An aligned table whose widths count Hangul as two terminal columns. */
export function formatTable<Row>(columns: Column<Row>[], rows: Row[]): string {
  const cells = rows.map((row) => columns.map((c) => cellText(c.value(row))));
  const widths = columns.map((c, i) => Math.max(width(c.header), ...cells.map((r) => width(r[i]))));
  const line = (values: string[]) =>
    values
      .map((v, i) => pad(v, widths[i], columns[i].align === "right"))
      .join("  ")
      .trimEnd();
  return [line(columns.map((c) => c.header)), widths.map((w) => "-".repeat(w)).join("  "), ...cells.map(line)].join(
    "\n",
  );
}

/** Label–value lines for one record, labels aligned. */
export function formatRecord(pairs: [string, string | number | boolean | null | undefined][]): string {
  const labelWidth = Math.max(...pairs.map(([label]) => width(label)));
  return pairs.map(([label, value]) => `${pad(label, labelWidth, false)}  ${cellText(value)}`).join("\n");
}

function cellText(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined || value === "") return "-";
  if (typeof value === "boolean") return value ? "예" : "아니오";
  return String(value).replace(/\s+/g, " ");
}

/** `YYYY-MM-DD HH:mm` in Seoul time, the product's display format; null or invalid gives `fallback`. */
export function seoulTime(value: string | Date | null | undefined, fallback = "없음"): string {
  if (!value) return fallback;
  const at = new Date(value).getTime();
  if (Number.isNaN(at)) return fallback;
  return seoulDateTime(at);
}

/** A whole number in [min, max] from an option, or a usage error naming the option. */
export function parseIntOption(value: string | undefined, option: string, min: number, max: number) {
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw badRequest(`${option} 값은 ${min}~${max} 사이의 정수여야 합니다.`);
  }
  return n;
}

/** One of the allowed words, or a usage error listing them. */
export function parseChoice<T extends string>(value: string | undefined, option: string, choices: readonly T[]) {
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) {
    throw badRequest(`${option} 값은 ${choices.join(", ")} 중 하나여야 합니다.`);
  }
  return value as T;
}
