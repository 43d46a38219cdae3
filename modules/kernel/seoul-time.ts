/**
 * Calendar arithmetic in Asia/Seoul, the product's time zone (dashboard "today", game records, the coming daily
 * and weekly rankings). Seoul has had no daylight saving time since 1988, so a fixed UTC+9 offset is exact.
 */
export const DAY_MS = 86_400_000;
export const SEOUL_OFFSET_MS = 9 * 3_600_000;

/** Start (epoch ms) of the Seoul calendar day containing `at`. */
export const seoulDayStart = (at: number) => Math.floor((at + SEOUL_OFFSET_MS) / DAY_MS) * DAY_MS - SEOUL_OFFSET_MS;

/** YYYY-MM-DD of the Seoul calendar day containing `at`. */
export const seoulDate = (at: number) => new Date(at + SEOUL_OFFSET_MS).toISOString().slice(0, 10);

/** `YYYY-MM-DD HH:mm` in Seoul time (the product's display format). */
export const seoulDateTime = (at: number) =>
  new Date(at + SEOUL_OFFSET_MS).toISOString().slice(0, 16).replace("T", " ");
