/**
 * The guild room's game tab (spec §3 Guild game state, §4 Guild game, product-rules "Guild wire details"): the
 * admins' start controls (a random or a chosen problem), the countdown, the problem with the typing input (progress
 * sent as typed, Enter submits; only the exact text counts), every participant's lane (the rooms' `RaceLanes`: the
 * correct prefix's share, live 타/분, the place), the watchers apart, and the results. A member may watch instead of
 * playing (관전하기, the page's `?watch=1`) and come back (참가하기); the role shown is the game state's.
 */
import { useEffect, useMemo, useState } from "react";
import { ProgressSender } from "../../lib/progress-sender";
import { useSecondsLeft } from "../../lib/use-now";
import { AnswerBox } from "../../ui/answer-box";
import { ErrorNotice } from "../../ui/error-notice";
import { RoleSwitch } from "../../ui/role-switch";
import { TypingPanel } from "../../ui/typing-panel";
import { RaceLanes } from "../rooms/race-lanes";
import { guildLanes, isWatching } from "./game-lanes";
import type { GuildGameResults, GuildGameState } from "./types";
import type { EmitGame } from "./use-guild-room";

const STATUS_TEXT: Record<GuildGameState["status"], string> = {
  waiting: "대기 중",
  countdown: "카운트다운",
  in_progress: "진행 중",
  finished: "종료",
};

const RANDOM = "";

/** The members watching, listed apart from the participants' lanes. */
function Watchers({ game }: { game: GuildGameState }) {
  if (game.spectators.length === 0) return null;
  return (
    <p className="muted guild-small guild-watchers" data-testid="guild-watchers">
      관전 {game.spectators.length}명: {game.spectators.map((s) => s.username).join(", ")}
    </p>
  );
}

/** Why a game ended (the server's `reason`). */
const END_TEXT: Record<string, string> = {
  all_finished: "참가자 모두 입력을 마쳤습니다.",
  time_up: "시간이 다 되어 게임이 끝났습니다.",
  stopped: "게임이 중단되었습니다.",
};

function Results({ results }: { results: GuildGameResults }) {
  const ended = results.reason ? END_TEXT[results.reason] : undefined;
  return (
    <section className="guild-results" aria-label="게임 결과">
      <h3 className="guild-section-title">게임 결과</h3>
      {ended && <p className="muted guild-small">{ended}</p>}
      {results.results.length === 0 ? (
        <p className="muted">완료한 참가자가 없습니다.</p>
      ) : (
        <ol className="guild-results-list">
          {results.results.map((r) => (
            <li key={r.user_id} className="guild-result">
              <span className={`guild-result-pos pos-${r.position}`}>{r.position}위</span>
              <span className="guild-result-name">{r.username}</span>
              <span className="muted guild-small">
                {Math.round(r.wpm ?? 0)}타/분 · 정확도 {Math.round(r.accuracy ?? 0)}%
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function StartControls({
  problems,
  busy,
  onStart,
}: {
  problems: string[];
  busy: boolean;
  onStart: (problem: string | null) => void;
}) {
  const [choice, setChoice] = useState(RANDOM);
  return (
    <div className="guild-start">
      <label className="field-label" htmlFor="guild-problem-choice">
        문제 선택
      </label>
      <div className="guild-start-row">
        <select id="guild-problem-choice" className="input" value={choice} onChange={(e) => setChoice(e.target.value)}>
          <option value={RANDOM}>무작위</option>
          {problems.map((problem, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: problems may repeat; the list is replaced as a whole
            <option key={index} value={problem}>
              {problem.length > 40 ? `${problem.slice(0, 40)}…` : problem}
            </option>
          ))}
        </select>
        <button type="button" className="btn btn-primary" disabled={busy} onClick={() => onStart(choice || null)}>
          게임 시작
        </button>
      </div>
      {problems.length === 0 && (
        <p className="muted guild-small">등록된 문제가 없습니다. 관리 패널에서 먼저 문제를 등록해주세요.</p>
      )}
    </div>
  );
}

export function GuildGamePanel({
  game,
  results,
  countdown,
  notice,
  rejected,
  isAdmin,
  problems,
  myUserId,
  emitGame,
}: {
  game: GuildGameState | null;
  results: GuildGameResults | null;
  countdown: number | null;
  notice: string | null;
  rejected: boolean;
  isAdmin: boolean;
  problems: string[];
  myUserId: number | null;
  emitGame: EmitGame;
}) {
  const [typed, setTyped] = useState("");
  // When the problem appeared here (local clock): the live speed and the submission's elapsed_time count from it.
  const [startedLocal, setStartedLocal] = useState<number | null>(null);
  // The steps go at the page's pace (at most 10 a second), as in the rooms: the server reads steps that arrive
  // closer together as held up on the way, and more of them than that pace allows as a burst (kernel race-steps).
  const sender = useMemo(
    () => new ProgressSender((text) => emitGame("guild_game:progress", { typed_text: text })),
    [emitGame],
  );
  useEffect(() => () => sender.reset(), [sender]);
  const status = game?.status ?? "waiting";
  const secondsLeft = useSecondsLeft(status === "in_progress" ? game?.ends_at : null);
  const me = game?.participants.find((p) => p.user_id === myUserId) ?? null;
  const watching = isWatching(game, myUserId);
  const running = status === "countdown" || status === "in_progress";

  // A new game starts with an empty input; the local start time is for the submission's elapsed_time.
  useEffect(() => {
    setStartedLocal((started) => (status === "in_progress" ? (started ?? Date.now()) : null));
    if (status === "countdown") {
      setTyped("");
      sender.reset();
    }
  }, [status, sender]);

  function type(value: string) {
    setTyped(value);
    // The server computes progress from the text so far and sends it to everyone, coalesced.
    if (status === "in_progress" && me && !me.completed) sender.update(value);
  }

  function submit() {
    if (!typed) return;
    // The server's last step must be the answer (an answer other than its last step is refused).
    sender.update(typed);
    sender.flush();
    const elapsed = startedLocal === null ? undefined : (Date.now() - startedLocal) / 1000;
    emitGame("guild_game:submission", { typed_text: typed, elapsed_time: elapsed });
  }

  const countdownShown = status === "countdown" ? (countdown ?? game?.countdown_seconds ?? null) : null;
  const typing = me !== null && !me.completed && !rejected && !watching;
  return (
    <section className="guild-game" aria-label="길드 게임">
      <div className="guild-game-head">
        <span className={`badge guild-status guild-status-${status}`} data-status={status}>
          {STATUS_TEXT[status]}
        </span>
        {secondsLeft !== null && <span className="guild-game-timer">남은 시간 {secondsLeft}초</span>}
      </div>
      <RoleSwitch watching={watching} watchingText="입력 없이 길드 게임을 지켜보는 중입니다." />
      <ErrorNotice text={notice} />
      {isAdmin && !running && (
        <StartControls
          problems={problems}
          busy={false}
          onStart={(problem) => emitGame("guild_game:start_request", problem ? { problem } : {})}
        />
      )}
      {!isAdmin && !running && status !== "finished" && (
        <p className="muted">길드 관리자가 게임을 시작하면 여기에 문제가 나옵니다.</p>
      )}
      {countdownShown !== null && (
        <p className="guild-countdown" aria-live="assertive">
          {countdownShown}초 후 게임이 시작됩니다!
        </p>
      )}
      {status === "in_progress" && game?.problem && (
        <div className="guild-problem-box">
          {/* The rooms' typing panel: characters marked as typed, live 타/분, accuracy and progress. */}
          <div className="guild-problem-text" data-testid="guild-problem">
            <TypingPanel
              text={game.problem}
              typed={typing ? typed : ""}
              active={typing}
              startLocal={typing ? startedLocal : null}
            />
          </div>
          {typing && (
            <AnswerBox
              className="guild-typing"
              value={typed}
              onValue={type}
              onSubmit={submit}
              placeholder="문제를 그대로 입력하고 Enter"
              label="답 입력"
            />
          )}
          {me?.completed && <p className="notice notice-success">완료! {me.position}위</p>}
          {!me && !watching && <p className="muted">이번 게임의 참가자가 아닙니다. 다음 게임을 기다려주세요.</p>}
        </div>
      )}
      <RaceLanes lanes={guildLanes(game)} myKey={watching || myUserId === null ? null : String(myUserId)} />
      {game && <Watchers game={game} />}
      {results && <Results results={results} />}
    </section>
  );
}
