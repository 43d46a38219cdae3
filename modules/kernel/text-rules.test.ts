import { describe, expect, test } from "bun:test";
import { BOARD_MSG, checkTitle } from "../board/rules";
import { checkComment, GUILD_MSG } from "../guilds/rules";
import { charLength, checkText, tooLongMessage } from "./text-rules";
import { VIEW_WINDOW_MS, viewerKey } from "./viewers";

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

  test("the free board and the guild board keep their own limits and texts", () => {
    expect(checkTitle("가".repeat(256))).toEqual({ ok: false, error: "제목은 255자 이내로 작성해주세요." });
    expect(BOARD_MSG.commentTooLong).toBe("댓글은 2,000자 이내로 작성해주세요.");
    expect(checkComment("가".repeat(1_001))).toEqual({ ok: false, error: "댓글은 1,000자 이내로 작성해주세요." });
    expect(GUILD_MSG.boardContentTooLong).toBe("내용은 10,000자 이내로 작성해주세요.");
  });
});

describe("viewer key", () => {
  const visit = (agent: string) => new Request("http://127.0.0.1/", { headers: { "user-agent": agent } });

  test("a logged-in viewer is their user id; anyone else a hash of address and browser", () => {
    expect(viewerKey(7, visit("A"), null, null)).toBe("u:7");
    const anonymous = viewerKey(null, visit("A"), null, null);
    expect(anonymous).toMatch(/^a:[\w-]{32}$/);
    expect(viewerKey(undefined, visit("A"), null, null)).toBe(anonymous);
    expect(viewerKey(null, visit("B"), null, null)).not.toBe(anonymous);
    expect(VIEW_WINDOW_MS).toBe(10 * 60 * 1000);
  });
});
