import { expect, test } from "bun:test";
import { checkComment, GUILD_MSG } from "./rules";

test("the guild board keeps its own limits and texts on the kernel's text rule", () => {
  expect(checkComment("가".repeat(1_001))).toEqual({ ok: false, error: "댓글은 1,000자 이내로 작성해주세요." });
  expect(GUILD_MSG.boardContentTooLong).toBe("내용은 10,000자 이내로 작성해주세요.");
});
