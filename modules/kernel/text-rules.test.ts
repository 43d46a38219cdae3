import { describe, expect, test } from "bun:test";
import {
  charLength,
  checkText,
  checkTextList,
  parseTextListFile,
  textListMessages,
  tooLongMessage,
} from "./text-rules";

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

  test("a list of texts: cleaned, empty ones dropped, bounded in count and length, the broken entry named", () => {
    const rules = { minLength: 3, maxLength: 5, maxCount: 2 };
    const messages = { format: "형식", required: "하나는", ...textListMessages("문장은", rules) };
    expect(messages).toMatchObject({
      tooLong: "문장은 5자 이내여야 합니다.",
      tooShort: "문장은 3자 이상이어야 합니다.",
    });
    expect(checkTextList([" 가나다 ", "", "  ", "라마바사"], rules, messages)).toEqual({
      ok: true,
      value: ["가나다", "라마바사"],
    });
    expect(checkTextList("가나다", rules, messages)).toEqual({ ok: false, error: "형식" });
    expect(checkTextList(["가나다", 3], rules, messages)).toEqual({ ok: false, error: "형식" });
    expect(checkTextList(["", " "], rules, messages)).toEqual({ ok: false, error: "하나는" });
    expect(checkTextList(["가나다", "라마바", "사아자"], rules, messages)).toMatchObject({ error: messages.tooMany });
    expect(checkTextList(["가나다", "", "가나다라마바"], rules, messages)).toEqual({
      ok: false,
      error: messages.tooLong,
      line: 3,
    });
    expect(checkTextList(["가나\u0007다"], rules, messages)).toMatchObject({ error: messages.tooLong, line: 1 });
    expect(checkTextList(["가나다", "가"], rules, messages)).toEqual({ ok: false, error: messages.tooShort, line: 2 });
    // Without `required` an empty list is a list (a guild may clear its problems).
    expect(checkTextList([], rules, { ...messages, required: undefined })).toEqual({ ok: true, value: [] });
    const collapse = (text: string) => text.replace(/\s+/g, " ").trim();
    expect(checkTextList(["가  나"], rules, messages, collapse)).toEqual({ ok: true, value: ["가 나"] });
  });

  test("a file of texts: a JSON array by name, type or first character, else one entry a line", () => {
    expect(parseTextListFile("list.json", "", '["가나다"]')).toEqual(["가나다"]);
    expect(parseTextListFile("list", "application/json", '["가"]')).toEqual(["가"]);
    expect(parseTextListFile("list.txt", "text/plain", '  ["가"]')).toEqual(["가"]);
    expect(parseTextListFile("list.txt", "text/plain", "\uFEFF첫 줄\r\n둘째 줄\n")).toEqual(["첫 줄", "둘째 줄", ""]);
    expect(parseTextListFile("list.json", "", "{}")).toBeNull();
    expect(parseTextListFile("list.json", "", "[broken")).toBeNull();
  });
});
