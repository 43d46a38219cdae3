import { describe, expect, test } from "bun:test";
import { practiceTime } from "./practice-card";

describe("the practice card's time", () => {
  test("minutes under an hour, then hours and minutes", () => {
    expect(practiceTime(0)).toBe("0분");
    expect(practiceTime(3.5)).toBe("4분");
    expect(practiceTime(59.4)).toBe("59분");
    expect(practiceTime(125.5)).toBe("2시간 6분");
    expect(practiceTime(60 * 1_200)).toBe("1,200시간 0분");
  });
});
