/**
 * The typing panel of every typing game (rooms' sentence race, guild game): the text with each typed character
 * marked right or wrong, then the live speed (타/분), accuracy and progress of what is typed so far, scored by the
 * server's own rules (`liveFigures` of modules/kernel/typing.ts). Styles: styles/app.css "typing panel".
 */
import type { ReactNode } from "react";
import { isComposingTowards, liveFigures } from "../../../modules/kernel/typing";
import { accuracyTone, percent } from "../lib/figures";
import { useNow } from "../lib/use-now";

/** Live figures are recomputed every 250 ms while something is typed. */
const LIVE_TICK_MS = 250;

/** The text, each typed character marked right or wrong (the last one neutral while it is being composed). */
export function TypedSentence({ text, typed, active }: { text: string; typed: string; active: boolean }) {
  const target = Array.from(text);
  const input = Array.from(typed.normalize("NFC"));
  const last = input.length - 1;
  return (
    <p className="sentence" lang="ko">
      {target.map((char, i) => {
        let className = "ch";
        if (i < input.length) {
          if (input[i] === char) className = "ch ch-ok";
          else if (i === last && isComposingTowards(input[i], target.slice(i).join(""))) className = "ch ch-typing";
          else className = "ch ch-bad";
        } else if (active && i === input.length) className = "ch ch-next";
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: characters of a fixed text, position is the identity
          <span key={i} className={className}>
            {char}
          </span>
        );
      })}
    </p>
  );
}

/** Speed (타/분), accuracy and progress of what is typed so far, since `startLocal` (a local `Date.now()`). */
export function LiveStats({ typed, text, startLocal }: { typed: string; text: string; startLocal: number }) {
  const now = useNow(LIVE_TICK_MS, typed.length > 0);
  const elapsed = Math.max(0.001, (now - startLocal) / 1000);
  const live = liveFigures(typed, text, elapsed);
  return (
    <dl className="live-stats" aria-label="실시간 기록">
      <div className="live-stat">
        <dt>현재 속도</dt>
        <dd data-testid="live-speed">{typed ? live.wpm : 0}타/분</dd>
      </div>
      <div className="live-stat">
        <dt>정확도</dt>
        <dd className={`acc-${accuracyTone(live.accuracy)}`} data-testid="live-accuracy">
          {percent(live.accuracy)}
        </dd>
      </div>
      <div className="live-stat">
        <dt>진행</dt>
        <dd>{Math.round(live.progress * 100)}%</dd>
      </div>
    </dl>
  );
}

/**
 * The panel: the text as typed so far, then `children` (a game's timer, say), then the live figures while the
 * player is typing (`startLocal` set: when the text appeared, local clock; null hides them).
 */
export function TypingPanel({
  text,
  typed,
  active,
  startLocal,
  children,
}: {
  text: string;
  /** What the player has typed; "" once answered (the text is then shown plain). */
  typed: string;
  /** The player is typing: the next character is marked. */
  active: boolean;
  startLocal: number | null;
  children?: ReactNode;
}) {
  return (
    <>
      <TypedSentence text={text} typed={typed} active={active} />
      {children}
      {startLocal !== null && <LiveStats typed={typed} text={text} startLocal={startLocal} />}
    </>
  );
}
