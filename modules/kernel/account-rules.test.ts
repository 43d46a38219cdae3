import { describe, expect, test } from "bun:test";
import { checkEmail, checkPassword, checkRename, checkUsername, MSG, usernameKey } from "./account-rules";

describe("username rules (spec part 1 §5)", () => {
  test.each([["철수"], ["kim123"], ["가나다라마바사아자차카타"], ["Typer9"]])("accepts %s", (name) => {
    expect(checkUsername(name)).toMatchObject({ ok: true, error: null });
  });

  test("length must be 1 to 12 characters, counting Hangul syllables as one", () => {
    expect(checkUsername("").error).toBe(MSG.usernameLength);
    expect(checkUsername("가나다라마바사아자차카타파").error).toBe(MSG.usernameLength);
    expect(checkUsername("abcdefghijklm").error).toBe(MSG.usernameLength);
  });

  test("special characters and spaces are refused", () => {
    for (const name of ["kim!", "김 철수", "under_score", "ㅋㅋㅋ", "a.b", "<script>"]) {
      expect(checkUsername(name).error).toBe(MSG.usernameCharacters);
    }
  });

  test("digits only is refused", () => {
    expect(checkUsername("12345").error).toBe(MSG.usernameDigitsOnly);
    expect(checkUsername("1234a").ok).toBe(true);
  });

  test("the checklist reports each rule separately", () => {
    expect(checkUsername("123").checks.map((c) => c.ok)).toEqual([true, true, false]);
  });

  test("uniqueness key ignores case and Unicode composition", () => {
    expect(usernameKey("Kim")).toBe(usernameKey("kIM"));
    expect(usernameKey("\u1100\u1161")).toBe(usernameKey("가"));
  });
});

describe("password and email rules", () => {
  test("at least 6 characters", () => {
    expect(checkPassword("abcde").error).toBe(MSG.passwordMin);
    expect(checkPassword("abcdef").ok).toBe(true);
  });
  test("confirmation must match", () => {
    expect(checkPassword("abcdef", "abcdeg").error).toBe(MSG.passwordMismatch);
    expect(checkPassword("abcdef", "abcdef").ok).toBe(true);
  });
  test("absurdly long passwords are refused", () => {
    expect(checkPassword("a".repeat(129)).error).toBe(MSG.passwordMax);
  });
  test("email shape", () => {
    expect(checkEmail("user@example.com")).toBeNull();
    expect(checkEmail(" User@Example.COM ")).toBeNull();
    for (const bad of ["user", "user@", "@x.com", "a b@x.com", "user@localhost"])
      expect(checkEmail(bad)).toBe(MSG.emailInvalid);
  });
});

describe("rename rule (spec part 2 §5, then the registration rules)", () => {
  test("one length range, 2~12, with the spec's text below 2 and one text above 12", () => {
    expect(checkRename(" 가 ").error).toBe("사용자명은 최소 2자 이상이어야 합니다.");
    expect(checkRename("가나다라마바사아자차카타파").error).toBe("사용자명은 12자 이하여야 합니다.");
    expect(checkRename("  새이름  ")).toMatchObject({ ok: true, error: null });
    expect(checkRename("ab").checks.map((c) => c.label)).toEqual([
      "2~12자 (앞뒤 공백 제외)",
      MSG.usernameCharacters,
      MSG.usernameDigitsOnly,
    ]);
  });

  test("the registration's character rules with their texts", () => {
    expect(checkRename("bad name!").error).toBe(MSG.usernameCharacters);
    expect(checkRename("12345").error).toBe(MSG.usernameDigitsOnly);
  });
});
