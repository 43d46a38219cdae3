/**
 * /daily — 오늘의 문장 (product-rules "Live race and replays"): one sentence a Seoul day for everyone, played alone as
 * often as one likes; each attempt is timed by the server (a 3-s countdown, then the sentence), raced beside a
 * ghost (the player's best of the day or the leader's, replayed from its steps). The day's board (members' best
 * verified attempts, top 10), the player's best and yesterday's podium.
 */
import { Link } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { useEffect, useRef, useState } from "react";
import { seoulDate } from "../../../../modules/kernel/seoul-time";
import { accuracyTone, percent } from "../../lib/figures";
import { useDocumentTitle } from "../../lib/title";
import { useSecondsLeft } from "../../lib/use-now";
import { AnswerBox } from "../../ui/answer-box";
import { ErrorNotice } from "../../ui/error-notice";
import { MedalBadge } from "../../ui/medals";
import { TypingPanel } from "../../ui/typing-panel";
import { currentUserAtom } from "../session/atoms";
import { type GhostChoice, type GhostOption, ghostOptions, pickGhost } from "./ghost";
import { GhostLanes, GhostPicker, useGhostReplay } from "./ghost-race";
import type { BestEntry, BoardEntry, DailyOverview, DailyResultView, DailyStateView } from "./types";
import { useDaily } from "./use-daily";

const MEDAL_POSITION = { gold: 1, silver: 2, bronze: 3 } as const;
const PAID_ATTEMPTS = 3;

const dayText = (day: string) => {
  const [y, m, d] = day.split("-").map(Number);
  return `${y}년 ${m}월 ${d}일`;
};

export function DailyPage() {
  useDocumentTitle("오늘의 문장");
  const daily = useDaily();
  // The server's day once it answers; until then this browser's idea of the Seoul day, so the line is there from
  // the first paint instead of pushing the page down when the answer comes.
  const day = daily.state?.day ?? daily.overview?.day ?? seoulDate(Date.now());
  return (
    <div className="daily-page">
      <header className="daily-header">
        <h1 className="daily-title">오늘의 문장</h1>
        <p className="daily-day" data-testid="daily-day">
          {dayText(day)} (서울 기준)
        </p>
        <p className="daily-intro">
          모두가 같은 문장에 도전합니다. 몇 번이든 다시 할 수 있고, 하루 첫 {PAID_ATTEMPTS}번은 보상을 받습니다. 자정에
          순위표 1–3위 회원에게 금·은·동 메달을 드립니다.
        </p>
      </header>
      <div className="daily-grid">
        <Attempt daily={daily} />
        <Board overview={daily.overview} failed={daily.boardFailed} />
      </div>
    </div>
  );
}

/**
 * The ghost of the next attempt (the player's pick, else the default rule) and the one of the attempt in play,
 * fixed when its countdown starts (a better best stored meanwhile is the next attempt's ghost).
 */
function useGhost(daily: ReturnType<typeof useDaily>, status: DailyStateView["status"] | null) {
  const [picked, setPicked] = useState<GhostChoice | null>(null);
  const [racing, setRacing] = useState<GhostOption | null>(null);
  const options = ghostOptions(daily.myBest ?? daily.overview?.my_best ?? null, daily.overview?.board[0]);
  const next = pickGhost(options, picked);
  const nextRef = useRef(next);
  nextRef.current = next;
  useEffect(() => {
    if (status === "countdown") setRacing(nextRef.current);
  }, [status]);
  // Fetched ahead, so the ghost is there when the sentence appears.
  useGhostReplay(status === "countdown" || status === "in_progress" ? null : (next?.replayKey ?? null));
  const replay = useGhostReplay(racing?.replayKey ?? null);
  return {
    options,
    next,
    pick: setPicked,
    racing: racing && replay?.key === racing.replayKey ? { label: racing.label, replay } : null,
  };
}

function Attempt({ daily }: { daily: ReturnType<typeof useDaily> }) {
  const { state, countdown, result, notice } = daily;
  const [typed, setTyped] = useState("");
  const [startedLocal, setStartedLocal] = useState<number | null>(null);
  const status = state?.status ?? null;
  const secondsLeft = useSecondsLeft(status === "in_progress" ? state?.ends_at : null);
  const ghost = useGhost(daily, status);
  const user = useAtomValue(currentUserAtom);

  useEffect(() => {
    if (status === "countdown") setTyped("");
    // Kept after the attempt: the lanes stay, the ghost running on to its finish.
    setStartedLocal((started) => {
      if (status === "in_progress") return started ?? Date.now();
      return status === "finished" ? started : null;
    });
  }, [status]);

  function type(value: string) {
    setTyped(value);
    daily.typed(value);
  }

  const canStart = status === "ready" || status === "finished";
  // While the socket connects the card already has its ready shape (the picker, a disabled button saying so): on a
  // phone the board below it would otherwise move down when the game answers.
  const connecting = status === null;
  return (
    <section className="daily-card daily-attempt" aria-labelledby="daily-attempt-title">
      <h2 id="daily-attempt-title" className="daily-card-title">
        도전
      </h2>
      <ErrorNotice text={notice} />
      {(canStart || connecting) && <GhostPicker options={ghost.options} chosen={ghost.next} onPick={ghost.pick} />}
      {(canStart || connecting) && (
        <button type="button" className="btn btn-primary daily-start" onClick={daily.start} disabled={connecting}>
          {connecting ? "연결하는 중…" : status === "finished" ? "다시 도전" : "시작"}
        </button>
      )}
      {status === "countdown" && (
        <p className="daily-countdown" aria-live="assertive">
          {countdown ?? state?.countdown_seconds}초 후 문장이 나옵니다!
        </p>
      )}
      {(status === "countdown" || status === "in_progress" || (status === "finished" && startedLocal !== null)) && (
        <GhostLanes
          sentence={state?.sentence?.text ?? ""}
          startedLocal={startedLocal}
          inPlay={status === "in_progress"}
          player={{ name: user?.username ?? "손님", typed, result }}
          ghost={ghost.racing}
        />
      )}
      {status === "in_progress" && state?.sentence && (
        <div className="daily-typing">
          <div className="daily-race-head">
            <span className="daily-timer">남은 시간 {secondsLeft ?? state.game_duration}초</span>
          </div>
          <div className="daily-sentence" data-testid="daily-sentence">
            <TypingPanel text={state.sentence.text} typed={typed} active startLocal={startedLocal} />
          </div>
          <AnswerBox
            className="daily-input-row"
            value={typed}
            onValue={type}
            onSubmit={() => typed && daily.submit(typed)}
            placeholder="문장을 그대로 입력하고 Enter"
            label="문장 입력"
          />
        </div>
      )}
      {status === "finished" && !result && <p className="daily-muted">이번 도전은 결과 없이 끝났습니다.</p>}
      {result && <Result result={result} state={state} />}
    </section>
  );
}

function Result({ result, state }: { result: DailyResultView; state: DailyStateView | null }) {
  const rewards = result.rewards;
  return (
    <div className="daily-result" role="status" data-testid="daily-result">
      <h3 className="daily-card-title">결과{result.attempt !== null ? ` (오늘 ${result.attempt}번째 도전)` : ""}</h3>
      <dl className="daily-figures">
        <div>
          <dt>속도</dt>
          <dd>{result.wpm}타/분</dd>
        </div>
        <div>
          <dt>정확도</dt>
          <dd className={`acc-${accuracyTone(result.accuracy)}`}>{percent(result.accuracy)}</dd>
        </div>
        <div>
          <dt>시간</dt>
          <dd>{result.completion_time.toFixed(2)}초</dd>
        </div>
      </dl>
      {!result.stored && <p className="daily-muted">기록을 저장하지 못했습니다.</p>}
      {result.stored && !result.verified && (
        <p className="daily-muted">입력 과정이 확인되지 않아 순위표에는 오르지 않습니다.</p>
      )}
      {result.stored &&
        (rewards ? (
          <p className="daily-muted">
            보상: 경험치 {rewards.experience}, 코인 {rewards.coins}, 포인트 {rewards.points}
          </p>
        ) : (
          <p className="daily-muted">하루 {PAID_ATTEMPTS}번째 도전까지만 보상을 받습니다.</p>
        ))}
      {state?.status === "finished" && result.best && <MyBest best={result.best} />}
    </div>
  );
}

function MyBest({ best }: { best: BestEntry }) {
  return (
    <p className="daily-best" data-testid="daily-my-best">
      내 최고 기록: {best.wpm}타/분 · {percent(best.accuracy)}
      {best.rank !== null ? ` · 오늘 ${best.rank}위` : ""}
    </p>
  );
}

function Board({ overview, failed }: { overview: DailyOverview | null; failed: boolean }) {
  return (
    <section className="daily-card daily-board" aria-labelledby="daily-board-title">
      <h2 id="daily-board-title" className="daily-card-title">
        오늘의 순위
      </h2>
      {failed && !overview && (
        <p className="daily-muted" role="alert">
          순위표를 불러오지 못했습니다.
        </p>
      )}
      {!failed && !overview && <Loading />}
      {overview && overview.board.length === 0 && (
        <p className="daily-muted">아직 기록이 없습니다. 첫 기록을 세워보세요!</p>
      )}
      {overview && overview.board.length > 0 && <Entries entries={overview.board} label="오늘의 순위 상위 10명" />}
      {overview?.my_best && <MyBest best={overview.my_best} />}
      {overview && <Yesterday winners={overview.yesterday.winners} />}
    </section>
  );
}

/** Drawn with the board's answer, not before: a list growing above it would move it on a phone. */
function Yesterday({ winners }: { winners: DailyOverview["yesterday"]["winners"] }) {
  return (
    <>
      <h2 className="daily-card-title daily-yesterday-title">어제의 1–3위</h2>
      {winners.length === 0 && <p className="daily-muted">어제는 기록이 없습니다.</p>}
      {winners.length > 0 && (
        <ol className="daily-list" aria-label="어제의 1–3위">
          {winners.map((w) => (
            <li key={w.player_key} className="daily-row">
              <MedalBadge position={MEDAL_POSITION[w.medal]} />
              <span className="daily-name">{w.nickname}</span>
              <span className="daily-figure">{w.wpm}타/분</span>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

/** Holds the place of the day's list while the board loads, one line high like an empty list's text or one row. */
function Loading() {
  return (
    <p className="daily-muted" aria-busy="true">
      불러오는 중…
    </p>
  );
}

function Entries({ entries, label }: { entries: BoardEntry[]; label: string }) {
  return (
    <ol className="daily-list" aria-label={label} data-testid="daily-board">
      {entries.map((entry) => (
        <li key={entry.player_key} className="daily-row">
          <span className="daily-rank">{entry.rank}위</span>
          <span className="daily-name">{entry.nickname}</span>
          <span className="daily-figure">
            {entry.wpm}타/분 · {percent(entry.accuracy)}
          </span>
          {entry.replay_key && (
            <Link
              className="daily-replay"
              to="/replay/$key"
              params={{ key: entry.replay_key }}
              aria-label={`리플레이: ${entry.nickname}`}
            >
              리플레이
            </Link>
          )}
        </li>
      ))}
    </ol>
  );
}
