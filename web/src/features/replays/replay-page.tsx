/**
 * /replay/{key} — a result played back as it was typed (product-rules "Live race and replays"): the sentence fills
 * in at the real pace from the server-stamped steps, with the live 타/분, accuracy and errors of each moment;
 * pause, 1× or 2×, and a scrub bar. Anyone with the link may watch.
 */
import { getRouteApi } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { isApiError } from "../../lib/api";
import { accuracyTone, percent } from "../../lib/figures";
import { formatDateTime } from "../../lib/format";
import { useDocumentTitle } from "../../lib/title";
import { TypedSentence } from "../../ui/typing-panel";
import { ReportButton } from "../moderation/report-dialog";
import { clockText, frameAt, replayLength } from "./replay-frames";
import { replaysApi } from "./replays-api";
import type { Replay } from "./types";

const route = getRouteApi("/replay/$key");

const MODE_NAMES: Record<Replay["mode"], string> = {
  sentence_race: "타자 방",
  guild_game: "길드 게임",
  daily: "오늘의 문장",
};
const SPEEDS = [1, 2] as const;

type Load = { status: "loading" } | { status: "ready"; replay: Replay } | { status: "missing" } | { status: "error" };

function useReplay(key: string): Load {
  const [load, setLoad] = useState<Load>({ status: "loading" });
  useEffect(() => {
    const controller = new AbortController();
    setLoad({ status: "loading" });
    replaysApi
      .get(key, controller.signal)
      .then((replay) => setLoad({ status: "ready", replay }))
      .catch((error) => {
        if (controller.signal.aborted) return;
        setLoad(isApiError(error) && error.status === 404 ? { status: "missing" } : { status: "error" });
      });
    return () => controller.abort();
  }, [key]);
  return load;
}

/**
 * The playback clock: `position` in ms of the replay, advanced on animation frames while playing (times `speed`),
 * stopping at the end; playing again from the end starts over.
 */
function usePlayback(length: number) {
  const [position, setPosition] = useState(0);
  const [playing, setPlaying] = useState(true);
  const [speed, setSpeed] = useState<(typeof SPEEDS)[number]>(1);
  const positionRef = useRef(0);
  positionRef.current = position;

  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let frame = requestAnimationFrame(function step(now) {
      const next = Math.min(length, positionRef.current + (now - last) * speed);
      last = now;
      setPosition(next);
      if (next >= length) setPlaying(false);
      else frame = requestAnimationFrame(step);
    });
    return () => cancelAnimationFrame(frame);
  }, [playing, speed, length]);

  const toggle = () => {
    if (!playing && positionRef.current >= length) setPosition(0);
    setPlaying(!playing);
  };
  return { position, setPosition, playing, toggle, speed, setSpeed };
}

export function ReplayPage() {
  const { key } = route.useParams();
  const load = useReplay(key);
  useDocumentTitle(load.status === "ready" ? `${load.replay.player.name}의 리플레이` : "리플레이");

  if (load.status !== "ready") {
    const text = {
      loading: "리플레이를 불러오는 중...",
      missing: "리플레이를 찾을 수 없습니다. 링크가 맞는지, 보관 기간(90일)이 지나지 않았는지 확인해주세요.",
      error: "리플레이를 불러오지 못했습니다. 잠시 후 다시 시도해주세요.",
    }[load.status];
    return (
      <section className="page-narrow replay-page">
        <h1 className="page-title">리플레이</h1>
        <p className="card muted" role={load.status === "loading" ? "status" : "alert"}>
          {text}
        </p>
      </section>
    );
  }
  return <ReplayPlayer replay={load.replay} />;
}

function ReplayPlayer({ replay }: { replay: Replay }) {
  const length = replayLength(replay.steps, replay.result.completion_time);
  const { position, setPosition, playing, toggle, speed, setSpeed } = usePlayback(length);
  const frame = frameAt(replay.steps, replay.sentence, position);
  const { result } = replay;

  return (
    <section className="page-narrow replay-page">
      <h1 className="page-title">{replay.player.name}의 리플레이</h1>
      <p className="muted replay-where">
        {MODE_NAMES[replay.mode]} · {replay.room_name} ·{" "}
        <time dateTime={result.created_at}>{formatDateTime(result.created_at)}</time>{" "}
        <ReportButton
          target={{ kind: "player", replay_key: replay.key }}
          subject={`${replay.player.name}의 기록 (리플레이)`}
        />
      </p>
      <dl className="replay-result" aria-label="최종 기록">
        <div>
          <dt>순위</dt>
          <dd>{result.position === null ? "순위 없음" : `${result.position}위`}</dd>
        </div>
        <div>
          <dt>속도</dt>
          <dd>{result.wpm}타/분</dd>
        </div>
        <div>
          <dt>정확도</dt>
          <dd>{percent(result.accuracy)}</dd>
        </div>
        <div>
          <dt>완료 시간</dt>
          <dd>{result.completion_time}초</dd>
        </div>
      </dl>

      <div className="card replay-stage">
        <TypedSentence text={replay.sentence} typed={frame.text} active={position < length} />
        <dl className="live-stats" aria-label="재생 중 기록">
          <div className="live-stat">
            <dt>현재 속도</dt>
            <dd data-testid="replay-speed">{frame.wpm}타/분</dd>
          </div>
          <div className="live-stat">
            <dt>정확도</dt>
            <dd className={`acc-${accuracyTone(frame.accuracy)}`}>{percent(frame.accuracy)}</dd>
          </div>
          <div className="live-stat">
            <dt>오타</dt>
            <dd data-testid="replay-errors">{frame.errors}개</dd>
          </div>
          <div className="live-stat">
            <dt>진행</dt>
            <dd>{Math.round(frame.progress * 100)}%</dd>
          </div>
        </dl>
      </div>

      <div className="replay-controls">
        <button type="button" className="btn btn-primary" onClick={toggle}>
          {playing ? "일시정지" : position >= length ? "다시 재생" : "재생"}
        </button>
        <fieldset className="replay-speeds">
          <legend className="sr-only">재생 속도</legend>
          {SPEEDS.map((value) => (
            <button
              key={value}
              type="button"
              className={`btn btn-small${speed === value ? " btn-primary" : " btn-ghost"}`}
              aria-pressed={speed === value}
              onClick={() => setSpeed(value)}
            >
              {value}×
            </button>
          ))}
        </fieldset>
        <label className="replay-scrub">
          <span className="sr-only">재생 위치</span>
          <input
            type="range"
            min={0}
            max={length}
            step={100}
            value={Math.round(position)}
            onChange={(event) => setPosition(Number(event.target.value))}
          />
        </label>
        <span className="replay-clock" data-testid="replay-clock">
          {clockText(position)} / {clockText(length)}
        </span>
      </div>
    </section>
  );
}
