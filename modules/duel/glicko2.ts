/**
 * Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013 revision: http://www.glicko.net/glicko/glicko2.pdf),
 * a small implementation of the paper's steps 1–8, tested against the paper's worked example. Each duel is one
 * rating period with one game, so a member's rating moves after every rated duel.
 */
export interface Glicko2Rating {
  /** On the Glicko scale (1500 = a new player). */
  rating: number;
  /** Rating deviation: how unsure the rating is (350 for a new player, shrinking with games played). */
  rd: number;
  volatility: number;
}

/** 1 = win, 0.5 = draw, 0 = loss, from the rated player's side. */
export type Score = 0 | 0.5 | 1;

export interface GameOutcome {
  opponent: Glicko2Rating;
  score: Score;
}

export const GLICKO2_NEW_PLAYER: Glicko2Rating = { rating: 1500, rd: 350, volatility: 0.06 };
/** The system constant τ (the paper suggests 0.3–1.2; 0.5 is its example's value). */
export const GLICKO2_TAU = 0.5;
const SCALE = 173.7178;
const CONVERGENCE = 0.000001;
/** An RD never grows beyond a new player's. */
const MAX_RD = 350;

const g = (phi: number) => 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));
const expected = (mu: number, muJ: number, phiJ: number) => 1 / (1 + Math.exp(-g(phiJ) * (mu - muJ)));

/** Step 5: the new volatility, by the Illinois algorithm. */
function newVolatility(phi: number, sigma: number, v: number, delta: number, tau: number): number {
  const a = Math.log(sigma * sigma);
  const f = (x: number) => {
    const ex = Math.exp(x);
    const d = phi * phi + v + ex;
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * d * d) - (x - a) / (tau * tau);
  };
  let A = a;
  let B: number;
  if (delta * delta > phi * phi + v) {
    B = Math.log(delta * delta - phi * phi - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) k++;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > CONVERGENCE) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  return Math.exp(A / 2);
}

/** The player's rating after a rating period with these games (none: only the deviation grows). */
export function rate(player: Glicko2Rating, games: readonly GameOutcome[], tau = GLICKO2_TAU): Glicko2Rating {
  const mu = (player.rating - 1500) / SCALE;
  const phi = player.rd / SCALE;
  const sigma = player.volatility;
  if (games.length === 0) {
    return { ...player, rd: Math.min(MAX_RD, Math.sqrt(phi * phi + sigma * sigma) * SCALE) };
  }
  let inverseV = 0;
  let sum = 0;
  for (const game of games) {
    const muJ = (game.opponent.rating - 1500) / SCALE;
    const phiJ = game.opponent.rd / SCALE;
    const e = expected(mu, muJ, phiJ);
    inverseV += g(phiJ) * g(phiJ) * e * (1 - e);
    sum += g(phiJ) * (game.score - e);
  }
  const v = 1 / inverseV;
  const delta = v * sum;
  const sigmaNew = newVolatility(phi, sigma, v, delta, tau);
  const phiStar = Math.sqrt(phi * phi + sigmaNew * sigmaNew);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * sum;
  return { rating: muNew * SCALE + 1500, rd: Math.min(MAX_RD, phiNew * SCALE), volatility: sigmaNew };
}

/** Both players of one duel rated at once, each against the other's rating from before the game. */
export function rateDuel(a: Glicko2Rating, b: Glicko2Rating, scoreOfA: Score): [Glicko2Rating, Glicko2Rating] {
  const scoreOfB = (1 - scoreOfA) as Score;
  return [rate(a, [{ opponent: b, score: scoreOfA }]), rate(b, [{ opponent: a, score: scoreOfB }])];
}
