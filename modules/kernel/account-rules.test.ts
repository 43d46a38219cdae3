import { describe, expect, test } from "bun:test";
import { checkEmail, checkPassword, checkUsername, MSG, usernameKey } from "./account-rules";

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
