import { Link } from "@tanstack/react-router";
import { useNow } from "../../lib/use-now";
import { TypingPanel } from "../../ui/typing-panel";
import { accuracyTone, percent, seconds, timerTone } from "./figures";
import { RaceLanes } from "./race-lanes";
import { AccuracyIcon, Rank, ResultsList, SpeedIcon } from "./results-list";
import { myMedal, type RoomState, raceLanes, type Timing } from "./room-state";
import type { Feedback } from "./types";

/** The highlight timer ticks every 50 ms (spec §9). */
const TIMER_TICK_MS = 50;

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

/**
 * "내 기록". A placed result shows its place (the medal only once the game's results say the server awarded one:
 * a game of one awards none) with speed and accuracy icons; a result without a place shows its figures plainly.
 */
function FeedbackCard({
  feedback,
  medal,
  replayKey,
}: {
  feedback: Feedback;
  medal: 1 | 2 | 3 | null;
  replayKey: string | null;
}) {
  const replay = replayKey ? (
    <Link to="/replay/$key" params={{ key: replayKey }} className="feedback-replay">
      리플레이
    </Link>
  ) : null;
  if (feedback.position === null) {
    return (
      <div className="feedback feedback-unplaced" role="status" data-testid="personal-feedback">
        <span className="feedback-title">내 기록</span>
        <span className="feedback-rank">순위 없음</span>
        <span className="feedback-figure muted">
          {feedback.wpm}타/분 · 정확도 {percent(feedback.accuracy)} · {seconds(feedback.completion_time)}
        </span>
        <span className="feedback-note muted">정확도 80% 이상이면 순위에 올라요.</span>
        {replay}
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
      {replay}
    </div>
  );
}

function NextGame({ at, waitingText }: { at: number | null; waitingText?: string }) {
  const now = useNow(250, at !== null);
  if (at === null) return <p className="stage-text">{waitingText ?? "참가자를 기다리는 중입니다."}</p>;
  const left = Math.max(0, Math.ceil((at - now) / 1000));
  return <p className="stage-text">{left > 0 ? `다음 게임이 ${left}초 후 시작됩니다.` : "곧 게임이 시작됩니다."}</p>;
}

/**
 * The stage above the chat: waiting, the countdown, the sentence with its timer, results. `waitingText`: what a
 * room with no next game scheduled says (a private room waits for its owner).
 */
export function GamePanel({ state, typed, waitingText }: { state: RoomState; typed: string; waitingText?: string }) {
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
      {game.status === "waiting" && <NextGame at={state.nextGameLocal} waitingText={waitingText} />}
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
          <TypingPanel
            text={sentence.text}
            typed={game.status === "in_progress" && !answered ? typed : ""}
            active={game.status === "in_progress" && !answered && !state.spectating}
            startLocal={
              game.status === "in_progress" && timing && !answered && !state.spectating ? timing.startLocal : null
            }
          >
            {game.status === "in_progress" && timing && <ProblemTimer timing={timing} />}
          </TypingPanel>
          <RaceLanes lanes={raceLanes(state)} myKey={state.spectating ? null : state.laneKey} />
        </>
      )}
      {answered && (
        <FeedbackCard
          feedback={answered}
          medal={myMedal(state)}
          replayKey={state.myReplay?.sentenceId === answered.sentence_id ? state.myReplay.key : null}
        />
      )}
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
