import { expect, test } from "bun:test";
import { BOARD_MSG, checkTitle } from "./rules";

test("the free board keeps its own limits and texts on the kernel's text rule", () => {
  expect(checkTitle("가".repeat(256))).toEqual({ ok: false, error: "제목은 255자 이내로 작성해주세요." });
  expect(BOARD_MSG.commentTooLong).toBe("댓글은 2,000자 이내로 작성해주세요.");
});
