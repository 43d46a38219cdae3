/** Pure display helpers of the administrator pages (unit-tested without a browser). */

import { formatDateTime as formatSeoul, INVALID_DATE_TEXT } from "../../lib/format";

export { pageWindow } from "../../lib/format";
export const INVALID_DATE = INVALID_DATE_TEXT;

/** `YYYY-MM-DD HH:mm` in Seoul time; null/absent gives `empty` (없음: "never"), an unparsable value 날짜 정보 없음. */
export const formatDateTime = (value: string | null | undefined, empty = "없음") => formatSeoul(value, empty);

/** `YYYY-MM-DD` → `M/D` for the chart's axis. */
export const shortDate = (date: string) => {
  const [, month, day] = date.split("-");
  return month && day ? `${Number(month)}/${Number(day)}` : date;
};

export const oneDecimal = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : "0.0");

export const formatNumber = (value: number) => value.toLocaleString("ko-KR");

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
