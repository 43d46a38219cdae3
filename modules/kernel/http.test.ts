import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { t } from "elysia";
import { apiResponses, loginRequired, plainNumbers } from "./http";

const Entry = t.Object({
  id: t.Integer({ description: "번호" }),
  rank: t.Optional(t.Integer()),
  score: t.Nullable(t.Numeric()),
  items: t.Array(t.Object({ n: t.Integer() })),
});

describe("plainNumbers", () => {
  test("documents integers and numbers as numbers, keeping each field's options and optionality", () => {
    const plain = plainNumbers(Entry);
    expect(JSON.parse(JSON.stringify(plain.properties))).toEqual({
      id: { type: "integer", description: "번호" },
      rank: { type: "integer" },
      score: { nullable: true, anyOf: [{ type: "number" }, { type: "null" }] },
      items: { type: "array", items: { type: "object", required: ["n"], properties: { n: { type: "integer" } } } },
    });
    expect(Value.Check(plain, { id: 1, score: null, items: [] })).toBe(true);
    expect(Value.Check(plain, { id: "1", score: null, items: [] })).toBe(false);
  });

  test("leaves the original schema (still used to coerce queries) as it was", () => {
    plainNumbers(Entry);
    expect(JSON.stringify(Entry.properties.id)).toContain('"format":"integer"');
  });
});

describe("apiResponses", () => {
  test("the success answer and exactly the listed errors, each with a Korean description", () => {
    const answers = apiResponses(
      { 201: Entry },
      { ...loginRequired("작성자가 아닙니다"), 404: "글이 없습니다", 422: true },
    );
    expect(Object.keys(answers).sort()).toEqual(["201", "401", "403", "404", "422"]);
    expect(answers[201].description).toBe("만들어짐");
    expect(answers[401].description).toBe("로그인이 필요합니다");
    expect(answers[403].description).toStartWith("작성자가 아닙니다 (또는 ");
    expect(answers[404].description).toBe("글이 없습니다");
    expect(answers[422].description).toBe("입력값이 올바르지 않습니다");
    expect(Value.Check(answers[404], { detail: "게시글을 찾을 수 없습니다." })).toBe(true);
  });
});
