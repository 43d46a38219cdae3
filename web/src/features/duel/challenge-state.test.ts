import { describe, expect, test } from "bun:test";
import { challengeLink, isMemberSid } from "./challenge-link";
import { challengesReducer, noChallenges, type PendingChallenge, secondsLeft } from "./challenge-state";

const from = (id: string, expiresAt = 15_000): PendingChallenge => ({
  id,
  sid: "u_7",
  nickname: "도전자",
  rating: 1510,
  expiresAt,
});

describe("the page's challenges", () => {
  test("received and sent ones until closed; who is told what", () => {
    let s = challengesReducer(noChallenges, { type: "received", challenge: from("in") });
    s = challengesReducer(s, { type: "sent", challenge: { ...from("out"), rating: null } });
    expect([s.received.map((c) => c.id), s.sent.map((c) => c.id)]).toEqual([["in"], ["out"]]);
    // The challenger hears of a decline; the member who declined is not told again.
    s = challengesReducer(s, { type: "closed", id: "out", reason: "declined", message: "도전이 거절되었습니다." });
    expect([s.sent, s.notice]).toEqual([[], "도전이 거절되었습니다."]);
    s = challengesReducer(s, { type: "notice", text: null });
    s = challengesReducer(s, { type: "closed", id: "in", reason: "declined", message: "도전이 거절되었습니다." });
    expect([s.received, s.notice]).toEqual([[], null]);
    // An accepted one goes quietly (the duel starts); an expired one is told; an unknown one changes nothing.
    s = challengesReducer(s, { type: "received", challenge: from("again") });
    s = challengesReducer(s, { type: "closed", id: "again", reason: "accepted", message: "수락" });
    expect([s.received, s.notice]).toEqual([[], null]);
    s = challengesReducer(s, { type: "received", challenge: from("late") });
    s = challengesReducer(s, { type: "closed", id: "late", reason: "expired", message: "만료" });
    expect(s.notice).toBe("만료");
    expect(challengesReducer(s, { type: "closed", id: "nope", reason: "expired", message: "?" })).toBe(s);
  });

  test("an answer removes it at once; the countdown and the local expiry", () => {
    let s = challengesReducer(noChallenges, { type: "received", challenge: from("a", 10_000) });
    s = challengesReducer(s, { type: "received", challenge: from("b", 20_000) });
    expect(secondsLeft(s.received[0], 4_100)).toBe(6);
    expect(challengesReducer(s, { type: "tick", now: 9_000 })).toBe(s);
    s = challengesReducer(s, { type: "tick", now: 10_000 });
    expect(s.received.map((c) => c.id)).toEqual(["b"]);
    s = challengesReducer(s, { type: "answered", id: "b" });
    expect(s.received).toEqual([]);
    expect(secondsLeft(from("c", 1_000), 5_000)).toBe(0);
  });

  test("links name a member's sid only", () => {
    expect(challengeLink("https://tajamadang.kr", "u_12")).toBe("https://tajamadang.kr/duel?challenge=u_12");
    expect([isMemberSid("u_12"), isMemberSid("g_0123456789ab"), isMemberSid("u_"), isMemberSid(12)]).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });
});
