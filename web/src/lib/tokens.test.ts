import { describe, expect, test } from "bun:test";
import {
  createTokenStore,
  memoryStorage,
  REFRESH_TOKEN_KEY,
  TOKEN_KEY,
  type TokenChange,
  type TokenOrigin,
  tokenSubject,
} from "./tokens";

/** An unsigned JWT-shaped token naming the account `sub` (only the payload is read). */
const jwt = (sub: number, nonce = 0) =>
  `e30.${btoa(JSON.stringify({ sub: String(sub), iat: nonce })).replace(/=+$/, "")}.sig`;

function watched() {
  const storage = memoryStorage();
  const store = createTokenStore(() => storage);
  const heard: [TokenChange, TokenOrigin][] = [];
  store.subscribe((change, origin) => heard.push([change, origin]));
  return { store, heard };
}

describe("token changes", () => {
  test("this tab's own changes", () => {
    const { store, heard } = watched();
    store.set("a", "r");
    store.rotate("b", "s");
    store.clear();
    expect(heard).toEqual([
      ["set", "this_tab"],
      ["refreshed", "this_tab"],
      ["cleared", "this_tab"],
    ]);
  });

  test("another tab's: logout, login, the same account's rotation, another account", () => {
    const { store, heard } = watched();
    store.changedElsewhere(TOKEN_KEY, jwt(7), null);
    store.changedElsewhere(TOKEN_KEY, null, jwt(7));
    store.changedElsewhere(TOKEN_KEY, jwt(7, 1), jwt(7, 2));
    store.changedElsewhere(TOKEN_KEY, jwt(7), jwt(8));
    store.changedElsewhere(REFRESH_TOKEN_KEY, "r1", "r2"); // written next to the access token: no news
    store.changedElsewhere(null, null, null); // the other tab cleared the whole storage
    expect(heard).toEqual([
      ["cleared", "other_tab"],
      ["set", "other_tab"],
      ["refreshed", "other_tab"],
      ["set", "other_tab"],
      ["cleared", "other_tab"],
    ]);
  });

  test("the subject of a token, or null when it is not a JWT", () => {
    expect(tokenSubject(jwt(42))).toBe("42");
    expect(tokenSubject("not-a-token")).toBeNull();
    expect(tokenSubject(null)).toBeNull();
  });
});
