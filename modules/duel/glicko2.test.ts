import { describe, expect, test } from "bun:test";
import { GLICKO2_NEW_PLAYER, rate, rateDuel } from "./glicko2";

describe("Glicko-2", () => {
  test("the paper's worked example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300", () => {
    // Glickman, "Example of the Glicko-2 system" (2013), steps 1–8 with τ = 0.5: μ' = −0.2069, φ' = 0.8722,
    // σ' = 0.05999, so r' = 1464.06 and RD' = 151.52 (the paper rounds μ' and φ' to 4 places first; unrounded
    // they give r' = 1464.05).
    const after = rate({ rating: 1500, rd: 200, volatility: 0.06 }, [
      { opponent: { rating: 1400, rd: 30, volatility: 0.06 }, score: 1 },
      { opponent: { rating: 1550, rd: 100, volatility: 0.06 }, score: 0 },
      { opponent: { rating: 1700, rd: 300, volatility: 0.06 }, score: 0 },
    ]);
    expect((after.rating - 1500) / 173.7178).toBeCloseTo(-0.2069, 4);
    expect(after.rd / 173.7178).toBeCloseTo(0.8722, 4);
    expect(after.rating).toBeCloseTo(1464.06, 1);
    expect(after.rd).toBeCloseTo(151.52, 1);
    // The paper prints σ' = 0.05999 (five places, cut off): 0.05999 ≤ σ' < 0.06.
    expect(after.volatility).toBeGreaterThanOrEqual(0.05999);
    expect(after.volatility).toBeLessThan(0.06);
  });

  test("a rating period without games only widens the deviation (step 6 alone)", () => {
    const after = rate({ rating: 1500, rd: 200, volatility: 0.06 }, []);
    expect(after.rating).toBe(1500);
    expect(after.rd).toBeCloseTo(Math.sqrt((200 / 173.7178) ** 2 + 0.06 ** 2) * 173.7178, 6);
    expect(rate({ ...GLICKO2_NEW_PLAYER }, []).rd).toBe(350);
  });

  test("a duel between two new players: the winner gains what the loser loses, both become surer", () => {
    const [winner, loser] = rateDuel(GLICKO2_NEW_PLAYER, GLICKO2_NEW_PLAYER, 1);
    expect(winner.rating).toBeGreaterThan(1500);
    expect(loser.rating).toBeLessThan(1500);
    expect(winner.rating - 1500).toBeCloseTo(1500 - loser.rating, 6);
    // A known figure for two fresh players (rd 350): ±162.3 (rounded), rd 290.3.
    expect(winner.rating).toBeCloseTo(1662.31, 1);
    expect(winner.rd).toBeCloseTo(290.32, 1);
    expect(loser.rd).toBeCloseTo(winner.rd, 6);
  });

  test("a draw between equals changes no rating; an upset moves more than an expected win", () => {
    const [a, b] = rateDuel(GLICKO2_NEW_PLAYER, GLICKO2_NEW_PLAYER, 0.5);
    expect(a.rating).toBeCloseTo(1500, 6);
    expect(b.rating).toBeCloseTo(1500, 6);
    const strong = { rating: 1800, rd: 80, volatility: 0.06 };
    const weak = { rating: 1400, rd: 80, volatility: 0.06 };
    const [expectedWin] = rateDuel(strong, weak, 1);
    const [upset] = rateDuel(weak, strong, 1);
    expect(upset.rating - weak.rating).toBeGreaterThan(expectedWin.rating - strong.rating);
  });
});
