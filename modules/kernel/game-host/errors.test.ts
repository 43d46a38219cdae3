import { describe, expect, test } from "bun:test";
import { AppError, forbidden } from "../errors";
import { ACCEPTED, NOT_IN_GAME, type Refusal, refusal, refusalErrors } from "./errors";

describe("refusalErrors: a host's refusal as the AppError the socket's error event carries", () => {
  const { refusalError, orThrow } = refusalErrors({
    statuses: { too_long: 400 },
    notInGame: () => forbidden("방에 먼저 입장해주세요.", "not_in_room"),
  });

  test("the module's status for its code, its text and code kept; any other code is a 409", () => {
    const tooLong = refusalError({ ok: false, error: "너무 깁니다.", code: "too_long" });
    expect([tooLong.status, tooLong.detail, tooLong.code]).toEqual([400, "너무 깁니다.", "too_long"]);
    const other = refusalError({ ok: false, error: "안 됩니다.", code: "whatever" });
    expect([other.status, other.detail, other.code]).toEqual([409, "안 됩니다.", "whatever"]);
  });

  test("not in the game: the module's own words; without them, the host's", () => {
    const own = refusalError(NOT_IN_GAME as Refusal);
    expect([own.status, own.detail, own.code]).toEqual([403, "방에 먼저 입장해주세요.", "not_in_room"]);
    const plain = refusalErrors({}).refusalError(NOT_IN_GAME as Refusal);
    expect([plain.status, plain.code]).toEqual([409, "not_in_game"]);
  });

  test("orThrow lets an accepted input through and throws a refusal", () => {
    expect(() => orThrow(ACCEPTED)).not.toThrow();
    expect(() => orThrow(refusal("안 됩니다.", "too_long"))).toThrow(AppError);
  });
});
