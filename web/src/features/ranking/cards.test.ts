import { describe, expect, test } from "bun:test";
import { cardRows, DUEL_CARDS, displayName, GAME_CARDS, medalScore, rankMedal } from "./cards";

describe("ranking cards", () => {
  test("the spec's limits: daily 5, weekly 10, medals and levels 10, duel 50 with 10 games and 7 days", () => {
    expect(GAME_CARDS.map((c) => c.path)).toEqual([
      "/rankings/users?period=daily&sort=wpm&limit=5",
      "/rankings/users?period=daily&sort=games&limit=5",
      "/rankings/users?period=weekly&sort=wpm&limit=10",
      "/rankings/users?period=weekly&sort=games&limit=10",
      "/rankings/medals?limit=10",
      "/rankings/levels?limit=10",
    ]);
    expect(DUEL_CARDS.map((c) => c.path)).toEqual([
      "/rankings/duel/win-rate?limit=50&min_games=10",
      "/rankings/duel/total-games?limit=50",
      "/rankings/duel/win-streak?limit=50",
      "/rankings/duel/recent-activity?limit=50&days=7",
    ]);
  });

  test("names fall back from username to the guest's nickname to 익명; medals only for ranks 1–3", () => {
    expect(displayName({ user_id: 1, username: "타자왕" })).toBe("타자왕");
    expect(displayName({ user_id: null, username: null, anonymous_nickname: "guest_1234" })).toBe("guest_1234");
    expect(displayName({ user_id: null, username: null })).toBe("익명");
    expect([1, 2, 3, 4].map(rankMedal)).toEqual([1, 2, 3, null]);
  });

  test("figures: speed with one decimal, games, medal score 3-2-1, win rate as a percentage", () => {
    const entry = { user_id: 1, username: "a", avg_wpm: 312.345, games_played: 1234, gold_medals: 2, silver_medals: 1 };
    expect(GAME_CARDS[0].figure(entry)).toBe("312.3타/분");
    expect(GAME_CARDS[1].figure(entry)).toBe("1,234판");
    expect(medalScore({ ...entry, bronze_medals: 4 })).toBe(12);
    // Medal counts are data for drawn medals, not emoji (which show as empty boxes without an emoji font).
    expect(GAME_CARDS.find((c) => c.id === "medals")?.figure(entry)).toEqual({ gold: 2, silver: 1, bronze: 0 });
    const duel = { user_id: 1, username: "a", win_rate: 0.625, wins: 5, losses: 3, total_games: 8 };
    expect(DUEL_CARDS[0].figure(duel as never)).toBe("62.5% (5승 3패)");
  });

  test("a card reserves the rows it shows when full: its limit, at most 10", () => {
    expect(GAME_CARDS.map(cardRows)).toEqual([5, 5, 10, 10, 10, 10]);
    expect(DUEL_CARDS.map(cardRows)).toEqual([10, 10, 10, 10]);
  });
});
