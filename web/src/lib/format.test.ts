import { describe, expect, test } from "bun:test";
import { formatDateTime, INVALID_DATE_TEXT } from "./format";

describe("formatDateTime", () => {
  test("shows UTC instants in Seoul time (UTC+9) as YYYY-MM-DD HH:mm", () => {
    expect(formatDateTime("2024-03-05T06:07:08.000Z")).toBe("2024-03-05 15:07");
    expect(formatDateTime("2024-12-31T15:30:00Z")).toBe("2025-01-01 00:30");
    expect(formatDateTime("2024-01-01T14:59:59Z")).toBe("2024-01-01 23:59");
  });

  test("midnight is 00, never 24", () => {
    expect(formatDateTime("2024-06-01T15:00:00Z")).toBe("2024-06-02 00:00");
  });

  test("accepts dates and epoch milliseconds", () => {
    expect(formatDateTime(new Date(Date.UTC(2023, 0, 2, 3, 4)))).toBe("2023-01-02 12:04");
    expect(formatDateTime(0)).toBe("1970-01-01 09:00");
  });

  test("invalid or missing values show 날짜 정보 없음", () => {
    expect(INVALID_DATE_TEXT).toBe("날짜 정보 없음");
    for (const value of ["", "not a date", "2024-13-45T99:00:00Z", null, undefined, Number.NaN, 8.64e15 + 1]) {
      expect(formatDateTime(value)).toBe(INVALID_DATE_TEXT);
    }
    expect(formatDateTime(new Date(Number.NaN))).toBe(INVALID_DATE_TEXT);
  });

  test("does not depend on the process time zone", () => {
    const before = process.env.TZ;
    try {
      process.env.TZ = "America/Los_Angeles";
      expect(formatDateTime("2024-03-05T06:07:08Z")).toBe("2024-03-05 15:07");
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });
});
