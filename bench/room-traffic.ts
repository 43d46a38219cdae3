/**
 * What a simulated room player does, shared by the rooms benchmarks (rooms-load.ts, watchers-load.ts): chat lines
 * that carry their send time, chat as one Poisson process over a crowd, the room's own chat limit, the answer typed
 * at a human pace (and its steps, 10 a second, spread over the 100 ms).
 */
import { keystrokes } from "../modules/kernel/typing";

const now = () => performance.now();

const CHAT_LINES = [
  "안녕하세요 다들 반가워요",
  "이번 문장 은근히 어렵네요",
  "오타 때문에 속도가 안 나와요",
  "다음 판에는 꼭 1등 할게요",
  "오늘 손이 좀 풀린 것 같아요",
  "받침 많은 문장은 정말 헷갈려요",
  "좋은 하루 보내세요",
  "방금 거의 다 맞췄는데 아쉽네요",
];

/** A chat line ending with " @<send time>" (performance.now() of the generator; the lines contain no other "@"). */
export const timedChatLine = (sequence: number, sentAt: number) =>
  `${CHAT_LINES[sequence % CHAT_LINES.length]} @${sentAt.toFixed(3)}`;

/** Both servers put message_type last in chat:message; a player's (or spectator's) chat ends with this. */
const PLAYER_CHAT_END = '"message_type":"chat"}]';

/**
 * The send time a `chat:message` frame carries (`timedChatLine`), or NaN for any other line (system, problem,
 * results). Read with string searches, not JSON.parse: a generator taking tens of thousands of frames a second must
 * not stall on its own garbage.
 */
export function chatSentAt(frame: string): number {
  return frame.endsWith(PLAYER_CHAT_END) ? timedLineSentAt(frame) : Number.NaN;
}

/** The send time of the first `timedChatLine` in any frame (a duel watchers' `duel:watch_chat`), or NaN. */
export function timedLineSentAt(frame: string): number {
  const mark = frame.indexOf(" @");
  return mark < 0 ? Number.NaN : Number(frame.slice(mark + 2, frame.indexOf('"', mark)));
}

/** The room's chat limit (5 lines within 3 s per player): a real client would not exceed it either. */
export class ChatPace {
  private times: number[] = [];
  /** Whether a line may go at `t`; when it may, it is counted as sent. */
  take(t: number): boolean {
    this.times = this.times.filter((at) => at > t - 3_000);
    if (this.times.length >= 5) return false;
    this.times.push(t);
    return true;
  }
}

/**
 * Calls `fire` as a Poisson process of `ratePerSecond` (the superposition of N players' processes is one process of
 * N times the rate), checked every 5 ms. Answers the function that stops it.
 */
export function startPoisson(ratePerSecond: number, fire: () => void): () => void {
  if (!(ratePerSecond > 0)) return () => {};
  let nextAt = now();
  const timer = setInterval(() => {
    const t = now();
    for (let guard = 0; nextAt <= t && guard < 10_000; guard++) {
      nextAt += (-Math.log(1 - Math.random()) / ratePerSecond) * 1000;
      fire();
    }
  }, 5);
  return () => clearInterval(timer);
}

/**
 * Visits `count` items once every `periodMs`, a tenth-of-the-period share of them per 10-ms tick, so 10,000
 * players' steps are spread over the period instead of sent in one burst. Answers the function that stops it.
 */
export function startSpreadTicker(periodMs: number, count: () => number, visit: (index: number, t: number) => void) {
  const slices = Math.max(1, Math.round(periodMs / 10));
  let tick = 0;
  const timer = setInterval(() => {
    const slice = tick++ % slices;
    const t = now();
    const n = count();
    for (let i = slice; i < n; i += slices) visit(i, t);
  }, 10);
  return () => clearInterval(timer);
}

/** An answer being typed: its characters, when typing started and when it will be sent. */
export interface Typing {
  chars: string[];
  from: number;
  until: number;
}

/** The answer box at `t`: as much of the answer as the pace has reached. */
export function typedSoFar(typing: Typing, t: number): string {
  const share = Math.min(1, (t - typing.from) / Math.max(1, typing.until - typing.from));
  return typing.chars.slice(0, Math.floor(typing.chars.length * share)).join("");
}

/**
 * How a player answers the announced sentence: at 250–550 타/분 (at least 0.8 s, at most until 1.5 s before the
 * round's end), with ~3 % of its characters mistyped when `mistakes` (a mistyped character stops the lane's
 * correct prefix, so a benchmark following the lanes types without them).
 */
export function planAnswer(text: string, gameDurationS: number, mistakes = true) {
  const speed = 250 + Math.random() * 300; // 타/분
  const typingMs = (keystrokes(text) / speed) * 60_000;
  const limitMs = (gameDurationS - 1.5) * 1000;
  const delayMs = Math.max(800, Math.min(typingMs, limitMs));
  const answer = mistakes ? mistype(text) : text;
  const from = now();
  return { answer, delayMs, typing: { chars: Array.from(answer), from, until: from + delayMs } as Typing };
}

function mistype(text: string): string {
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i++) if (Math.random() < 0.03 && chars[i] !== " ") chars[i] = "ㅁ";
  return chars.join("");
}
