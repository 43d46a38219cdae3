/** Pure display helpers of the administrator pages (unit-tested without a browser). */

export const INVALID_DATE = "날짜 정보 없음";
const SEOUL_OFFSET_MS = 9 * 3_600_000;

/** `YYYY-MM-DD HH:mm` in Seoul time; null/absent gives `empty`, an unparsable value 날짜 정보 없음. */
export function formatDateTime(value: string | null | undefined, empty = "없음"): string {
  if (value === null || value === undefined || value === "") return empty;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return INVALID_DATE;
  return new Date(at + SEOUL_OFFSET_MS).toISOString().slice(0, 16).replace("T", " ");
}

/** `YYYY-MM-DD` → `M/D` for the chart's axis. */
export const shortDate = (date: string) => {
  const [, month, day] = date.split("-");
  return month && day ? `${Number(month)}/${Number(day)}` : date;
};

export const oneDecimal = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : "0.0");

export const formatNumber = (value: number) => value.toLocaleString("ko-KR");

/**
 * Up to `size` page numbers around the current page (spec part 2 §9: a window of up to 5), clamped to the
 * first and last page.
 */
export function pageWindow(current: number, totalPages: number, size = 5): number[] {
  if (totalPages < 1) return [];
  const page = Math.min(Math.max(1, current), totalPages);
  const count = Math.min(size, totalPages);
  const start = Math.min(Math.max(1, page - Math.floor(size / 2)), totalPages - count + 1);
  return Array.from({ length: count }, (_, i) => start + i);
}

/** "전체 45명 중 21–40" for the list footer; empty results say so. */
export function resultRange(total: number, page: number, pageSize: number, shown: number, unit = "명"): string {
  if (total === 0 || shown === 0) return `전체 ${formatNumber(total)}${unit}`;
  const first = (page - 1) * pageSize + 1;
  return `전체 ${formatNumber(total)}${unit} 중 ${formatNumber(first)}–${formatNumber(first + shown - 1)}`;
}

/** Long text cut to `max` characters (code points) with an ellipsis; the table shows the full text on hover. */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}
