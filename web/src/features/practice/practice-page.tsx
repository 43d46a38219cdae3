/**
 * /practice — 타자 연습 (issue 28; modules/practice README): choose a kind, type it line by line with the text
 * coloured as it goes, the live figures and the on-screen keyboard, then see the result and the per-jamo
 * statistics. Members' results and statistics are on the server; a guest's stay in this browser and move to the
 * account once they are signed in (the first visit of this page as a member).
 */
import { useAtomValue } from "jotai";
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { KeystrokeTally, nextKey, type UnitFigures, unitName } from "../../../../modules/practice/keystroke-model";
import { LAYOUT_NAMES, LAYOUTS, type Layout, layoutOf } from "../../../../modules/practice/layouts";
import { KIND_NAMES, type PracticeKind } from "../../../../modules/practice/rules";
import { isApiError } from "../../lib/api";
import { accuracyTone, percent } from "../../lib/figures";
import { onlineAtom } from "../../lib/online";
import { useDocumentTitle } from "../../lib/title";
import { useNow } from "../../lib/use-now";
import { isSendingEnter } from "../../ui/answer-box";
import { ErrorNotice } from "../../ui/error-notice";
import { TypedSentence } from "../../ui/typing-panel";
import { currentUserAtom, sessionStatusAtom } from "../session/atoms";
import { HeatKeyboard, KeyboardGuide, nextKeyText } from "./keyboard";
import { useWholeWordListOffline } from "./offline-words";
import {
  clearGuestResults,
  guestResults,
  guestStatistics,
  keepGuestResult,
  type LongTextAbout,
  practiceApi,
  type ResultInput,
  type Statistics,
} from "./practice-api";
import { ProgressPanel } from "./practice-goals";
import { usePracticeLayout } from "./practice-layout";
import {
  addLine,
  drillLines,
  type LineTotals,
  lineOffsets,
  NO_LINES,
  position,
  type SessionFigures,
  sessionFigures,
  textLines,
  wordLines,
} from "./practice-lines";
import { tokenOwner, unsentResults } from "./unsent-results";

const WORD_COUNT = 30;
const SENTENCE_COUNT = 8;
/** 맞춤 연습 drills this many of the weakest jamo; before there is enough to judge, the usual hard spots. */
const FOCUS_COUNT = 3;
const DEFAULT_FOCUS = ["shift", "dokkaebi", "double_final"];
/** The hard spots a layout has (세벌식 has no 도깨비불). */
const defaultFocus = (layout: Layout) =>
  DEFAULT_FOCUS.filter((unit) => (layoutOf(layout).transitions as readonly string[]).includes(unit));
const KEYBOARD_SHOWN = "practice_keyboard_shown";

interface Plan {
  kind: PracticeKind;
  textId: string;
  title: string;
  lines: string[];
  /** 긴 글 can be paused. */
  pausable: boolean;
}

interface Outcome {
  figures: SessionFigures;
  seconds: number;
  saved: Saved;
}

/** Where a finished practice went. */
type Saved =
  | { to: "server" /** What it paid; null when another tab sent it. */; experience: number | null }
  | { to: "queue" }
  | { to: "browser" }
  | { to: "nowhere" /** Why the server refused it. */; failure: string };

/**
 * A member's result goes through the queue of unsent results: sent now when the server can be reached, kept on
 * this device until it can (offline, the server down, the session to be renewed), never sent twice.
 */
async function saveForMember(owner: number, result: ResultInput): Promise<Saved> {
  unsentResults.add(owner, result);
  const id = result.client_id;
  try {
    const outcome = await unsentResults.send();
    const recorded = outcome.sent.get(id);
    if (recorded) return { to: "server", experience: recorded.experience };
    const refused = outcome.refused.get(id);
    if (refused !== undefined) return { to: "nowhere", failure: refused };
  } catch {}
  const waiting = unsentResults.pending().some((entry) => entry.result.client_id === id);
  return waiting ? { to: "queue" } : { to: "server", experience: null };
}

/** The member's results still on this device: sent at mount and whenever the connection returns. */
function useUnsentResults(owner: number | null, onSent: () => void) {
  const online = useAtomValue(onlineAtom);
  const [waiting, setWaiting] = useState(0);
  const count = useCallback(
    () => setWaiting(owner === null ? 0 : unsentResults.pending().filter((entry) => entry.owner === owner).length),
    [owner],
  );
  useEffect(() => {
    count();
    if (owner === null || !online) return;
    let live = true;
    unsentResults.send().then(
      (outcome) => {
        if (!live) return;
        count();
        if (outcome.sent.size > 0) onSent();
      },
      () => live && count(),
    );
    return () => {
      live = false;
    };
  }, [owner, online, count, onSent]);
  return { waiting, count };
}

export function PracticePage() {
  useDocumentTitle("타자 연습");
  const user = useAtomValue(currentUserAtom);
  const status = useAtomValue(sessionStatusAtom);
  // Whose practice this is: the member signed in, or the one whose session could not be checked (opened offline).
  const owner = user?.id ?? (status === "anonymous" ? tokenOwner() : null);
  const [plan, setPlan] = useState<Plan | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [layout, chooseLayout] = usePracticeLayout(user?.id ?? null);
  const { stats, refresh } = useStatistics(user?.id ?? null, layout, setNotice);
  const unsent = useUnsentResults(owner, refresh);
  useWholeWordListOffline(useAtomValue(onlineAtom));

  async function start(make: () => Promise<Plan>) {
    setNotice(null);
    try {
      const next = await make();
      setOutcome(null);
      setPlan(next);
    } catch (error) {
      setNotice(isApiError(error) ? error.detail : "연습을 준비하지 못했습니다.");
    }
  }

  async function finished(result: ResultInput | null, figures: SessionFigures, seconds: number) {
    setPlan(null);
    if (!result) return;
    let saved: Saved = { to: "browser" };
    if (owner === null) keepGuestResult(result);
    else saved = await saveForMember(owner, result);
    setOutcome({ figures, seconds, saved });
    unsent.count();
    refresh();
  }

  return (
    <div className="practice-page">
      <header>
        <h1 className="practice-title">타자 연습</h1>
        <p className="practice-muted">
          자리 연습부터 긴 글까지 혼자 연습합니다. 치는 동안 자모마다 속도와 오타를 재어 약한 자모를 찾고, 맞춤 연습이
          그 자모를 모아 연습시킵니다. 회원은 하루 첫 30분의 연습에 경험치를 받습니다(코인, 포인트, 랭킹은 없음).
        </p>
      </header>
      <ErrorNotice text={notice} />
      {unsent.waiting > 0 && (
        <p className="notice notice-info" role="status" data-testid="practice-unsent">
          아직 저장하지 못한 연습 기록 {unsent.waiting}개가 이 기기에 있습니다. 연결되면 자동으로 저장합니다.
        </p>
      )}
      {plan ? (
        <Runner key={`${plan.textId}-${plan.lines[0]}`} plan={plan} layout={layout} onDone={finished} />
      ) : (
        <>
          {outcome && <OutcomeCard outcome={outcome} />}
          <Chooser start={start} weakest={stats?.weakest ?? []} layout={layout} chooseLayout={chooseLayout} />
        </>
      )}
      {stats && <StatisticsPanel stats={stats} signedIn={user !== null} layout={layout} />}
      {!plan && (
        <ProgressPanel
          userId={user?.id ?? null}
          layout={layout}
          streak={stats?.totals.streak ?? 0}
          weakest={stats?.weakest ?? []}
          typed={[...(stats?.jamo ?? []), ...(stats?.transitions ?? [])].filter((f) => f.hits > 0).map((f) => f.unit)}
          version={stats}
        />
      )}
    </div>
  );
}

/** Members' statistics from the server (a guest's from this browser), and the guest's results moved at sign-in. */
function useStatistics(userId: number | null, layout: Layout, setNotice: (text: string | null) => void) {
  const [stats, setStats] = useState<Statistics | null>(null);
  const refresh = useCallback(() => {
    if (userId === null) {
      setStats(guestStatistics(layout));
      return;
    }
    practiceApi.stats(layout).then(setStats, () => setStats(null));
  }, [userId, layout]);
  useEffect(() => {
    let live = true;
    const kept = guestResults();
    if (userId === null || kept.length === 0) {
      refresh();
      return;
    }
    practiceApi.merge(kept).then(
      (merged) => {
        clearGuestResults();
        if (live && merged.stored > 0) setNotice(`손님일 때 한 연습 기록 ${merged.stored}개를 계정으로 옮겼습니다.`);
        if (live) refresh();
      },
      () => live && refresh(),
    );
    return () => {
      live = false;
    };
  }, [userId, refresh, setNotice]);
  return { stats, refresh };
}

function Chooser({
  start,
  weakest,
  layout,
  chooseLayout,
}: {
  start: (make: () => Promise<Plan>) => void;
  weakest: string[];
  layout: Layout;
  chooseLayout: (layout: Layout) => void;
}) {
  const [texts, setTexts] = useState<LongTextAbout[]>([]);
  const [textId, setTextId] = useState("");
  useEffect(() => {
    practiceApi.texts().then(
      (catalogue) => {
        setTexts(catalogue.long);
        setTextId((id) => id || (catalogue.long[0]?.id ?? ""));
      },
      () => setTexts([]),
    );
  }, []);
  const focus = weakest.length > 0 ? weakest.slice(0, FOCUS_COUNT) : defaultFocus(layout);
  const chosen = texts.find((t) => t.id === textId);
  return (
    <section className="practice-card" aria-labelledby="practice-choose-title">
      <h2 id="practice-choose-title" className="practice-card-title">
        연습 고르기
      </h2>
      <div className="practice-layout-choice">
        <label className="practice-label" htmlFor="practice-layout">
          자판
        </label>
        <select
          id="practice-layout"
          className="input practice-select"
          value={layout}
          onChange={(e) => chooseLayout(e.target.value as Layout)}
        >
          {LAYOUTS.map((id) => (
            <option key={id} value={id}>
              {LAYOUT_NAMES[id]}
            </option>
          ))}
        </select>
      </div>
      <div className="practice-kinds">
        <div className="practice-kind">
          <h3>{KIND_NAMES.keys}</h3>
          <p className="practice-muted">글쇠 줄마다 자모 하나씩: 손가락 자리를 익힙니다.</p>
          <div className="practice-buttons">
            {layoutOf(layout).drills.map((drill) => (
              <button
                key={drill.id}
                type="button"
                className="btn btn-ghost btn-small"
                onClick={() =>
                  start(async () => ({
                    kind: "keys",
                    textId: `keys:${drill.id}`,
                    title: `${KIND_NAMES.keys}: ${drill.name}`,
                    lines: drillLines(drill),
                    pausable: false,
                  }))
                }
              >
                {drill.name}
              </button>
            ))}
          </div>
        </div>
        <div className="practice-kind">
          <h3>{KIND_NAMES.words}</h3>
          <p className="practice-muted">낱말 {WORD_COUNT}개를 다섯 개씩 칩니다.</p>
          <button
            type="button"
            className="btn btn-ghost btn-small"
            onClick={() =>
              start(async () => ({
                kind: "words",
                textId: "words",
                title: KIND_NAMES.words,
                lines: wordLines(await practiceApi.words(WORD_COUNT)),
                pausable: false,
              }))
            }
          >
            낱말 연습 시작
          </button>
        </div>
        <div className="practice-kind">
          <h3>{KIND_NAMES.short}</h3>
          <p className="practice-muted">속담과 짧은 문장 {SENTENCE_COUNT}개.</p>
          <button
            type="button"
            className="btn btn-ghost btn-small"
            onClick={() =>
              start(async () => ({
                kind: "short",
                textId: "short",
                title: KIND_NAMES.short,
                lines: await practiceApi.sentences(SENTENCE_COUNT),
                pausable: false,
              }))
            }
          >
            짧은 글 시작
          </button>
        </div>
        <div className="practice-kind">
          <h3>{KIND_NAMES.long}</h3>
          <label className="practice-label" htmlFor="practice-long-text">
            긴 글 고르기
          </label>
          <select id="practice-long-text" className="input" value={textId} onChange={(e) => setTextId(e.target.value)}>
            {texts.map((t) => (
              <option key={t.id} value={t.id}>
                {t.title} — {t.author}
              </option>
            ))}
          </select>
          {chosen && (
            <p className="practice-muted practice-small">
              {chosen.year}년 · {chosen.characters.toLocaleString("ko-KR")}자 · {chosen.licence}
            </p>
          )}
          <button
            type="button"
            className="btn btn-ghost btn-small"
            disabled={!textId}
            onClick={() =>
              start(async () => {
                const text = await practiceApi.text(textId);
                return {
                  kind: "long",
                  textId: `long:${text.id}`,
                  title: `${KIND_NAMES.long}: ${text.title}`,
                  lines: textLines(text.paragraphs),
                  pausable: true,
                };
              })
            }
          >
            긴 글 시작
          </button>
        </div>
        <div className="practice-kind">
          <h3>{KIND_NAMES.adaptive}</h3>
          <p className="practice-muted" data-testid="practice-focus">
            {weakest.length > 0
              ? `약한 자모 ${focus.map(unitName).join(", ")}가 많이 든 낱말을 칩니다.`
              : `아직 약한 자모를 가릴 기록이 없어 ${focus.map(unitName).join(", ")}이 든 낱말을 칩니다.`}
          </p>
          <button
            type="button"
            className="btn btn-primary btn-small"
            onClick={() =>
              start(async () => ({
                kind: "adaptive",
                textId: "adaptive",
                title: KIND_NAMES.adaptive,
                lines: wordLines(await practiceApi.words(20, focus, layout)),
                pausable: false,
              }))
            }
          >
            맞춤 연습 시작
          </button>
        </div>
      </div>
    </section>
  );
}

function useKeyboardShown(): [boolean, () => void] {
  const [shown, setShown] = useState(() => localStorage.getItem(KEYBOARD_SHOWN) !== "0");
  const toggle = () =>
    setShown((was) => {
      localStorage.setItem(KEYBOARD_SHOWN, was ? "0" : "1");
      return !was;
    });
  return [shown, toggle];
}

/** The typing of one practice: line by line, timed while keys are pressed and not paused. */
function Runner({
  plan,
  layout,
  onDone,
}: {
  plan: Plan;
  layout: Layout;
  onDone: (result: ResultInput | null, figures: SessionFigures, seconds: number) => void;
}) {
  const tally = useRef(new KeystrokeTally(layout));
  const [index, setIndex] = useState(0);
  const [typed, setTyped] = useState("");
  // The lines done as their sum: a keystroke on line 300 costs what one on line 1 does.
  const [done, setDone] = useState<LineTotals>(NO_LINES);
  const offsets = useMemo(() => lineOffsets(plan.lines), [plan.lines]);
  const [paused, setPaused] = useState(false);
  const clock = useRef({ activeMs: 0, since: null as number | null });
  const [keyboardShown, toggleKeyboard] = useKeyboardShown();
  const running = clock.current.since !== null;
  // Re-renders the live figures while the clock runs.
  useNow(250, running);
  const input = useRef<HTMLInputElement>(null);
  const target = plan.lines[index] ?? "";

  useEffect(() => {
    tally.current.setTarget(plan.lines[0] ?? "");
  }, [plan]);

  const activeMs = () =>
    clock.current.activeMs + (clock.current.since === null ? 0 : performance.now() - clock.current.since);

  function type(value: string) {
    if (paused) return;
    const at = performance.now();
    if (clock.current.since === null) clock.current.since = at;
    tally.current.input(value, at);
    setTyped(value);
  }

  function finish(lines: LineTotals) {
    const ms = activeMs();
    clock.current = { activeMs: ms, since: null };
    const figures = sessionFigures(lines, null, ms);
    const result: ResultInput | null =
      figures.keystrokes > 0
        ? {
            client_id: crypto.randomUUID(),
            kind: plan.kind,
            text_id: plan.textId,
            layout,
            wpm: figures.wpm,
            accuracy: figures.accuracy,
            keystrokes: figures.keystrokes,
            error_count: figures.errors,
            duration_ms: Math.max(1_000, Math.round(ms)),
            finished_at: new Date().toISOString(),
            summary: tally.current.summary(),
          }
        : null;
    onDone(result, figures, ms / 1000);
  }

  function nextLine() {
    if (!typed) return;
    const lines = addLine(done, { target, typed });
    setDone(lines);
    setTyped("");
    if (index + 1 >= plan.lines.length) {
      finish(lines);
      return;
    }
    tally.current.setTarget(plan.lines[index + 1]!);
    setIndex(index + 1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (!isSendingEnter(event)) return;
    event.preventDefault();
    nextLine();
  }

  function togglePause() {
    if (paused) {
      setPaused(false);
      requestAnimationFrame(() => input.current?.focus());
      return;
    }
    clock.current = { activeMs: activeMs(), since: null };
    tally.current.pause();
    setPaused(true);
  }

  const live = sessionFigures(done, { target, typed }, Math.max(1, activeMs()));
  const where = position(offsets, index, typed);
  const upcoming = plan.lines.slice(index + 1, index + 3);
  const next = nextKey(typed, target, layout);

  return (
    <section className="practice-card practice-runner" aria-labelledby="practice-run-title">
      <div className="practice-run-head">
        <h2 id="practice-run-title" className="practice-card-title">
          {plan.title}
        </h2>
        <div className="practice-buttons">
          {plan.pausable && (
            <button type="button" className="btn btn-ghost btn-small" onClick={togglePause}>
              {paused ? "이어 하기" : "일시 정지"}
            </button>
          )}
          <button
            type="button"
            className="btn btn-ghost btn-small"
            onClick={toggleKeyboard}
            aria-pressed={keyboardShown}
          >
            {keyboardShown ? "자판 숨기기" : "자판 보이기"}
          </button>
          <button type="button" className="btn btn-ghost btn-small" onClick={() => finish(done)}>
            그만하기
          </button>
        </div>
      </div>
      <dl className="live-stats" aria-label="실시간 기록">
        <div className="live-stat">
          <dt>현재 속도</dt>
          <dd data-testid="practice-speed">{live.wpm}타/분</dd>
        </div>
        <div className="live-stat">
          <dt>정확도</dt>
          <dd className={`acc-${accuracyTone(live.accuracy)}`} data-testid="practice-accuracy">
            {percent(live.accuracy)}
          </dd>
        </div>
        <div className="live-stat">
          <dt>위치</dt>
          <dd data-testid="practice-position">
            {index + 1}/{plan.lines.length}줄 · {where.done}/{where.total}자
          </dd>
        </div>
      </dl>
      <div className="practice-text" data-testid="practice-line">
        <TypedSentence text={target} typed={typed} active={!paused} />
      </div>
      {upcoming.length > 0 && (
        <ol className="practice-upcoming" aria-label="다음 줄">
          {upcoming.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines of a fixed text, the line number is the identity
            <li key={index + 1 + i}>{line}</li>
          ))}
        </ol>
      )}
      {paused && (
        <p className="practice-paused" role="status">
          잠시 멈췄습니다. 시간은 가지 않습니다.
        </p>
      )}
      <input
        ref={input}
        className="input practice-input"
        value={typed}
        onChange={(e) => type(e.target.value)}
        onKeyDown={onKeyDown}
        disabled={paused}
        placeholder="위의 줄을 그대로 치고 Enter"
        aria-label="연습 입력"
        autoComplete="off"
        autoCorrect="off"
        spellCheck={false}
        // biome-ignore lint/a11y/noAutofocus: the practice has just started; typing is the only thing to do
        autoFocus
      />
      <p className="practice-guide" data-testid="practice-next">
        {nextKeyText(next, layoutOf(layout))}
      </p>
      {keyboardShown && <KeyboardGuide next={next} layout={layoutOf(layout)} />}
    </section>
  );
}

function OutcomeCard({ outcome }: { outcome: Outcome }) {
  const { figures, saved } = outcome;
  return (
    <section
      className="practice-card"
      role="status"
      data-testid="practice-result"
      aria-labelledby="practice-result-title"
    >
      <h2 id="practice-result-title" className="practice-card-title">
        연습 결과
      </h2>
      <dl className="practice-figures">
        <div>
          <dt>속도</dt>
          <dd>{figures.wpm}타/분</dd>
        </div>
        <div>
          <dt>정확도</dt>
          <dd className={`acc-${accuracyTone(figures.accuracy)}`}>{percent(figures.accuracy)}</dd>
        </div>
        <div>
          <dt>시간</dt>
          <dd>{outcome.seconds.toFixed(1)}초</dd>
        </div>
      </dl>
      <p className="practice-muted">{savedText(saved)}</p>
    </section>
  );
}

function savedText(saved: Saved): string {
  switch (saved.to) {
    case "server":
      if (saved.experience === null) return "기록을 저장했습니다.";
      return saved.experience > 0
        ? `기록을 저장했습니다. 경험치 +${saved.experience}`
        : "기록을 저장했습니다. 오늘 경험치를 받는 30분은 다 채웠습니다.";
    case "queue":
      return "서버에 연결할 수 없어 기록을 이 기기에 보관했습니다. 연결되면 자동으로 저장합니다.";
    case "browser":
      return "기록은 이 브라우저에 남았습니다. 로그인하면 계정으로 옮겨집니다.";
    case "nowhere":
      return `기록을 저장하지 못했습니다. ${saved.failure}`.trim();
  }
}

const rate = (f: UnitFigures) => (f.hits === 0 ? "–" : `${(f.error_rate * 100).toFixed(1)}%`);

function StatisticsPanel({ stats, signedIn, layout }: { stats: Statistics; signedIn: boolean; layout: Layout }) {
  const typedUnits = stats.jamo.filter((f) => f.hits > 0);
  return (
    <section className="practice-card" aria-labelledby="practice-stats-title" data-testid="practice-stats">
      <h2 id="practice-stats-title" className="practice-card-title">
        내 자모 통계: {LAYOUT_NAMES[layout]}
        {signedIn ? " (최근 30일)" : " (이 브라우저)"}
      </h2>
      {signedIn && (
        <p className="practice-muted">
          오늘 {stats.totals.today_minutes}분 연습 · 오늘 경험치 {stats.totals.today_experience}
        </p>
      )}
      {typedUnits.length === 0 ? (
        <p className="practice-muted">아직 기록이 없습니다. 연습을 하면 자모마다 속도와 오타율이 쌓입니다.</p>
      ) : (
        <>
          <p className="practice-muted" data-testid="practice-weakest">
            약한 자모: {stats.weakest.length > 0 ? stats.weakest.map(unitName).join(", ") : "아직 없음"}
          </p>
          <HeatKeyboard figures={stats.jamo} layout={layoutOf(layout)} />
          <div className="practice-tables">
            <FiguresTable caption="자모별 기록" heading="자모" rows={typedUnits} />
            <FiguresTable caption="어려운 전환" heading="전환" rows={stats.transitions} />
          </div>
        </>
      )}
    </section>
  );
}

function FiguresTable({ caption, heading, rows }: { caption: string; heading: string; rows: readonly UnitFigures[] }) {
  return (
    <table className="practice-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{heading}</th>
          <th scope="col">타수</th>
          <th scope="col">오타율</th>
          <th scope="col">속도</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((f) => (
          <tr key={f.unit}>
            <th scope="row">{unitName(f.unit)}</th>
            <td>{f.hits}</td>
            <td>{rate(f)}</td>
            <td>{f.speed === null ? "–" : `${f.speed}타/분`}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
