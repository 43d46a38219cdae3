import { isComposingTowards, liveFigures } from "../../../../modules/kernel/typing";
import { accuracyTone, percent, seconds, timerTone } from "./figures";
import { AccuracyIcon, Rank, ResultsList, SpeedIcon } from "./results-list";
import { myMedal, type RoomState, type Timing } from "./room-state";
import type { Feedback } from "./types";
import { useNow } from "./use-now";

/** The highlight timer ticks every 50 ms (spec §9). */
const TIMER_TICK_MS = 50;
const LIVE_TICK_MS = 250;

/** Time left of the problem: green above 50 %, yellow above 25 %, red below. */
export function ProblemTimer({ timing, compact = false }: { timing: Timing; compact?: boolean }) {
  const now = useNow(TIMER_TICK_MS, Date.now() < timing.endLocal);
  const remaining = Math.max(0, timing.endLocal - now);
  const share = timing.durationMs > 0 ? (remaining / timing.durationMs) * 100 : 0;
  const tone = timerTone(remaining, timing.durationMs);
  return (
    <div className={`timer timer-${tone}${compact ? " timer-compact" : ""}`}>
      <div className="timer-track" aria-hidden="true">
        <div className="timer-fill" style={{ width: `${share}%` }} />
      </div>
      <span className="timer-text" role="timer" aria-label="남은 시간">
        {(remaining / 1000).toFixed(1)}초
      </span>
    </div>
  );
}

/** The sentence, each typed character marked right or wrong (the last one neutral while it is being composed). */
function TypedSentence({ text, typed, active }: { text: string; typed: string; active: boolean }) {
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
          // biome-ignore lint/suspicious/noArrayIndexKey: characters of a fixed sentence, position is the identity
          <span key={i} className={className}>
            {char}
          </span>
        );
      })}
    </p>
  );
}

/** Speed and accuracy of what is typed so far (the shared scoring of modules/kernel/typing.ts). */
function LiveStats({ typed, sentence, timing }: { typed: string; sentence: string; timing: Timing }) {
  const now = useNow(LIVE_TICK_MS, typed.length > 0);
  const elapsed = Math.max(0.001, (now - timing.startLocal) / 1000);
  const live = liveFigures(typed, sentence, elapsed);
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
 * "내 기록". A placed result shows its place (the medal only once the game's results say the server awarded one:
 * a game of one awards none) with speed and accuracy icons; a result without a place shows its figures plainly.
 */
function FeedbackCard({ feedback, medal }: { feedback: Feedback; medal: 1 | 2 | 3 | null }) {
  if (feedback.position === null) {
    return (
      <div className="feedback feedback-unplaced" role="status" data-testid="personal-feedback">
        <span className="feedback-title">내 기록</span>
        <span className="feedback-rank">순위 없음</span>
        <span className="feedback-figure muted">
          {feedback.wpm}타/분 · 정확도 {percent(feedback.accuracy)} · {seconds(feedback.completion_time)}
        </span>
        <span className="feedback-note muted">정확도 80% 이상이면 순위에 올라요.</span>
      </div>
    );
  }
  return (
    <div className="feedback" role="status" data-testid="personal-feedback">
      <span className="feedback-title">내 기록</span>
      <span className="feedback-rank">
        <Rank position={feedback.position} medal={medal} />
        <span>{feedback.position}위</span>
      </span>
      <span className="feedback-figure">
        <SpeedIcon wpm={feedback.wpm} />
        <strong data-testid="my-speed">{feedback.wpm}</strong>타/분
      </span>
      <span className={`feedback-figure acc-${accuracyTone(feedback.accuracy)}`}>
        <AccuracyIcon accuracy={feedback.accuracy} />
        정확도 {percent(feedback.accuracy)}
      </span>
      <span className="feedback-figure feedback-time muted">{seconds(feedback.completion_time)}</span>
    </div>
  );
}

function NextGame({ at }: { at: number | null }) {
  const now = useNow(250, at !== null);
  if (at === null) return <p className="stage-text">참가자를 기다리는 중입니다.</p>;
  const left = Math.max(0, Math.ceil((at - now) / 1000));
  return <p className="stage-text">{left > 0 ? `다음 게임이 ${left}초 후 시작됩니다.` : "곧 게임이 시작됩니다."}</p>;
}

/** The stage above the chat: waiting, the countdown, the sentence with its timer, results. */
export function GamePanel({ state, typed }: { state: RoomState; typed: string }) {
  const { game, timing } = state;
  if (!game) {
    return (
      <section className="stage card" aria-label="게임">
        {/* As long as what replaces it, so the page's largest text is painted at once, not when the socket answers. */}
        <p className="stage-text muted">방에 입장하는 중입니다. 잠시만 기다려 주세요.</p>
      </section>
    );
  }
  const answered = state.feedback && state.feedback.sentence_id === game.sentence?.id ? state.feedback : null;
  const sentence = game.sentence;
  return (
    <section className={`stage card stage-${game.status}`} aria-label="게임">
      {game.status === "countdown" && (
        <div className="countdown" aria-live="assertive">
          <span className="countdown-number">{state.countdown ?? game.countdown_seconds}</span>
          <span className="countdown-text">곧 문장이 나옵니다. 준비하세요!</span>
        </div>
      )}
      {game.status === "waiting" && <NextGame at={state.nextGameLocal} />}
      {(game.status === "in_progress" || game.status === "finished") && sentence && (
        <>
          <div className="stage-head">
            <span className="stage-label">{game.status === "in_progress" ? "제시 문장" : "지난 문장"}</span>
            {state.completed && (
              <span className="stage-done muted">
                완료 {state.completed.count}/{state.completed.total}명
              </span>
            )}
            {game.status === "in_progress" && state.endCountdown !== null && (
              <span className="end-countdown" aria-live="polite">
                종료 {state.endCountdown}초 전
              </span>
            )}
          </div>
          <TypedSentence
            text={sentence.text}
            typed={game.status === "in_progress" && !answered ? typed : ""}
            active={game.status === "in_progress" && !answered}
          />
          {game.status === "in_progress" && timing && <ProblemTimer timing={timing} />}
          {game.status === "in_progress" && timing && !answered && (
            <LiveStats typed={typed} sentence={sentence.text} timing={timing} />
          )}
        </>
      )}
      {answered && <FeedbackCard feedback={answered} medal={myMedal(state)} />}
      {state.results && game.status !== "in_progress" && game.status !== "countdown" && (
        <div className="stage-results">
          <h2 className="stage-subtitle">게임 결과</h2>
          <ResultsList
            results={state.results.results}
            participants={state.results.participants}
            mySessionId={state.sessionId}
          />
        </div>
      )}
    </section>
  );
}
