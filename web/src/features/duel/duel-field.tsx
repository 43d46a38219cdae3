/** The duel's field and what is drawn over it, shared by the players' view and the watchers' (duel-page, watch). */
import type { ReactNode } from "react";
import { DuelCanvas } from "./duel-canvas";
import { type DuelRating, type DuelResult, type DuelState, reasonLines, type Side, unratedNote } from "./duel-state";

export const SIDE_TEXT = { red: "빨강", blue: "파랑" } as const;

/**
 * The canvas with the countdown, the wait for the start, and `overlay` (the result) over it; then the words on the
 * field as text, since the canvas is not readable by assistive technology.
 */
export function DuelField({ state, overlay }: { state: DuelState; overlay: ReactNode }) {
  return (
    <>
      <div className="duel-field">
        <DuelCanvas blocks={state.blocks} bullets={state.bullets} />
        {state.countdown !== null && <div className="duel-countdown">{state.countdown}</div>}
        {state.status === "waiting" && state.countdown === null && (
          <div className="duel-countdown small">
            {state.phase === "watching" ? "두 사람의 준비를 기다리는 중…" : "상대를 기다리는 중…"}
          </div>
        )}
        {state.result && overlay}
      </div>
      <ul className="sr-only" aria-label="화면의 단어">
        {state.blocks.map((block) => (
          <li key={block.id} data-word={block.word} data-status={block.status}>
            {block.word}
          </li>
        ))}
      </ul>
    </>
  );
}

const signed = (value: number) => (value > 0 ? `+${value}` : `${value}`);

/** Reason (worded from the viewer's side, each fact once), lives, words, duration and the rating change. */
export function ResultDetails({
  result,
  side,
  gone,
  rating,
}: {
  result: DuelResult;
  side: Side | null;
  gone: "left" | "disconnected" | null;
  rating: DuelRating | null;
}) {
  const note = unratedNote(result, rating);
  return (
    <>
      {reasonLines(result, side, gone).map((line) => (
        <p key={line} className="duel-reason">
          {line}
        </p>
      ))}
      <dl className="duel-result-figures">
        <dt>남은 생명</dt>
        <dd>
          빨강 {result.red_remaining_lives} · 파랑 {result.blue_remaining_lives}
        </dd>
        <dt>입력한 단어</dt>
        <dd>
          빨강 {result.red_words_typed} · 파랑 {result.blue_words_typed}
        </dd>
        <dt>대결 시간</dt>
        <dd>{Math.round(result.game_duration)}초</dd>
        {result.rated === false ? (
          <>
            <dt>레이팅</dt>
            <dd>변동 없음</dd>
          </>
        ) : (
          rating && (
            <>
              <dt>레이팅</dt>
              <dd>{rating.rated ? `${rating.rating} (${signed(rating.change)})` : `${rating.rating} (변동 없음)`}</dd>
            </>
          )
        )}
      </dl>
      {note && <p className="duel-reason">{note}</p>}
    </>
  );
}
