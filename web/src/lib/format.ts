/** Display formatting shared by pages (spec part 2 §1, §9: board dates as YYYY-MM-DD HH:mm, Seoul time). */

export const INVALID_DATE_TEXT = "날짜 정보 없음";

// One formatter for the whole app: building an Intl.DateTimeFormat is slow compared to using one.
const seoulParts = new Intl.DateTimeFormat("en-US", {
  timeZone: "Asia/Seoul",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  // h23, not hour12:false: some engines print midnight as "24" with the latter.
  hourCycle: "h23",
});

/**
 * `YYYY-MM-DD HH:mm` in Seoul time, whatever the viewer's own time zone. Anything that is not a valid date
 * (garbage, an out-of-range number) gives 날짜 정보 없음; a missing value gives `empty` (the same by default; the
 * admin pages say 없음 for "never logged in").
 */
export function formatDateTime(value: string | number | Date | null | undefined, empty = INVALID_DATE_TEXT): string {
  if (value === null || value === undefined || value === "") return empty;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return INVALID_DATE_TEXT;
  const part: Record<string, string> = {};
  for (const { type, value: text } of seoulParts.formatToParts(date)) part[type] = text;
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}`;
}

/** The page-number window of every pager (spec part 2 §2, §9: about 5 pages). */
export const PAGER_WINDOW = 5;

/**
 * Up to `size` consecutive page numbers with the current page in the middle where possible, clamped to 1 and the
 * last page.
 */
export function pageWindow(current: number, totalPages: number, size = PAGER_WINDOW): number[] {
  if (totalPages < 1) return [];
  const page = Math.min(Math.max(1, current), totalPages);
  const count = Math.min(size, totalPages);
  const start = Math.min(Math.max(1, page - Math.floor(size / 2)), totalPages - count + 1);
  return Array.from({ length: count }, (_, i) => start + i);
}
