import { describe, expect, test } from "bun:test";
import { charLength, checkText, tooLongMessage } from "./text-rules";

describe("shared text rules", () => {
  test("a length counts code points, so an emoji is one character", () => {
    expect(charLength("가나😀")).toBe(3);
  });

  test("required and at most N characters, trimmed, each module with its own messages", () => {
    const messages = { required: "필수", tooLong: "김" };
    expect(checkText("  ab  ", 2, messages)).toEqual({ ok: true, value: "ab" });
    expect(checkText("   ", 2, messages)).toEqual({ ok: false, error: "필수" });
    expect(checkText("abc", 2, messages)).toEqual({ ok: false, error: "김" });
    expect(tooLongMessage("댓글은", 2_000)).toBe("댓글은 2,000자 이내로 작성해주세요.");
  });
});
