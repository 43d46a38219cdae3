/**
 * 목표와 진행 (modules/practice README "Goals", "Statistics and progress"): the player's target, 연속 연습, the daily
 * speed and accuracy of each kind against the target, and how a weak jamo did day by day. A member's target and
 * progress are the server's; a guest's are this browser's (moved to the account at sign-in). The charts load only
 * once the panel is on screen (practice-charts.tsx): the page's first load carries no recharts.
 */
import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from "react";
import { unitName } from "../../../../modules/practice/keystroke-model";
import type { Layout } from "../../../../modules/practice/layouts";
import {
  DEFAULT_GOAL,
  GOAL_RANGE,
  KIND_NAMES,
  PRACTICE_KINDS,
  PRACTICE_RULES,
} from "../../../../modules/practice/rules";
import { isApiError } from "../../lib/api";
import { ErrorNotice } from "../../ui/error-notice";
import { type Goal, guestGoal, guestResults, keepGuestGoal, practiceApi } from "./practice-api";
import {
  dailySeries,
  guestProgress,
  type KindChoice,
  kindsIn,
  type Progress,
  type SeriesPoint,
  type UnitDay,
} from "./practice-progress";

const Charts = {
  Speed: lazy(() => import("./practice-charts").then((m) => ({ default: m.SpeedChart }))),
  Unit: lazy(() => import("./practice-charts").then((m) => ({ default: m.UnitChart }))),
};

const PROGRESS_DAYS = PRACTICE_RULES.statsDays;

/**
 * The member's target from the server (a guest's from this browser). At sign-in a guest's target becomes the
 * account's when the account has none; the browser's copy is then dropped.
 */
function useGoal(userId: number | null) {
  const [goal, setGoal] = useState<Goal | null>(() => (userId === null ? guestGoal() : null));
  useEffect(() => {
    let live = true;
    const kept = guestGoal();
    if (userId === null) {
      setGoal(kept);
      return;
    }
    practiceApi
      .goal()
      .then(async ({ goal: stored }) => {
        if (stored || !kept) return stored;
        const moved = (await practiceApi.setGoal(kept)).goal;
        keepGuestGoal(null);
        return moved;
      })
      .then(
        (stored) => live && setGoal(stored),
        () => {},
      );
    return () => {
      live = false;
    };
  }, [userId]);
  const save = async (next: Goal) => {
    if (userId === null) keepGuestGoal(next);
    else next = (await practiceApi.setGoal(next)).goal ?? next;
    setGoal(next);
  };
  const clear = async () => {
    if (userId === null) keepGuestGoal(null);
    else await practiceApi.clearGoal();
    setGoal(null);
  };
  return { goal, save, clear };
}

/** True once the element has been on screen (then stays true). */
function useSeen<T extends Element>() {
  const ref = useRef<T>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || seen) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [seen]);
  return { ref, seen };
}

/** A member's progress from the server, a guest's from the browser; again whenever `version` changes. */
function useProgress(userId: number | null, layout: Layout, unit: string, version: unknown) {
  const [progress, setProgress] = useState<Progress | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the signal that a result was added
  useEffect(() => {
    let live = true;
    if (userId === null)
      setProgress(guestProgress(guestResults(), Date.now(), PROGRESS_DAYS, unit || undefined, layout));
    else
      practiceApi.progress(PROGRESS_DAYS, layout, unit || undefined).then(
        (answer) => live && setProgress(answer),
        () => live && setProgress(null),
      );
    return () => {
      live = false;
    };
  }, [userId, layout, unit, version]);
  return progress;
}

export function ProgressPanel({
  userId,
  layout,
  streak,
  weakest,
  typed,
  version,
}: {
  userId: number | null;
  layout: Layout;
  streak: number;
  /** The weakest units, weakest first: offered first, the first one shown. */
  weakest: readonly string[];
  /** Every unit typed in the statistics' window (offered after the weakest). */
  typed: readonly string[];
  /** Changes when a result was added (the statistics were read again). */
  version: unknown;
}) {
  const { goal, save, clear } = useGoal(userId);
  const [kind, setKind] = useState<KindChoice>("all");
  const [unit, setUnit] = useState("");
  // A unit is one layout's key: another layout starts from its own weakest.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the layout is the signal
  useEffect(() => setUnit(""), [layout]);
  const units = [...weakest, ...typed.filter((u) => !weakest.includes(u))];
  const shownUnit = unit || units[0] || "";
  const progress = useProgress(userId, layout, shownUnit, version);
  const { ref, seen } = useSeen<HTMLElement>();
  const target = goal ?? DEFAULT_GOAL;
  const kinds = progress ? kindsIn(progress.days, PRACTICE_KINDS) : [];
  const series = progress ? dailySeries(progress.days, kind) : [];

  return (
    <section
      ref={ref}
      className="practice-card"
      aria-labelledby="practice-progress-title"
      data-testid="practice-progress"
    >
      <h2 id="practice-progress-title" className="practice-card-title">
        목표와 진행
      </h2>
      <p className="practice-streak" data-testid="practice-streak">
        연속 연습 <strong>{streak}일</strong>
      </p>
      <GoalForm goal={goal} save={save} clear={clear} />
      <div className="practice-progress-head">
        <h3>날마다 속도와 정확도 (최근 {PROGRESS_DAYS}일)</h3>
        <label className="practice-label" htmlFor="practice-progress-kind">
          종류
        </label>
        <select
          id="practice-progress-kind"
          className="input practice-select"
          value={kind}
          onChange={(e) => setKind(e.target.value as KindChoice)}
        >
          <option value="all">모든 연습</option>
          {kinds.map((k) => (
            <option key={k} value={k}>
              {KIND_NAMES[k]}
            </option>
          ))}
        </select>
      </div>
      {series.length === 0 ? (
        <p className="practice-muted">아직 이 기간의 연습 기록이 없습니다.</p>
      ) : (
        <figure className="practice-chart" aria-label="날마다 속도와 정확도">
          <div className="practice-chart-box">
            {seen && (
              <Suspense fallback={null}>
                <Charts.Speed series={series} goal={target} />
              </Suspense>
            )}
          </div>
          <figcaption className="practice-muted" data-testid="practice-goal-summary">
            {goalSummary(series, target, goal !== null)}
          </figcaption>
        </figure>
      )}
      <div className="practice-progress-head">
        <h3>약한 자모의 변화</h3>
        <label className="practice-label" htmlFor="practice-progress-unit">
          자모
        </label>
        <select
          id="practice-progress-unit"
          className="input practice-select"
          value={shownUnit}
          onChange={(e) => setUnit(e.target.value)}
          disabled={units.length === 0}
        >
          {units.length === 0 && <option value="">아직 없음</option>}
          {units.map((u) => (
            <option key={u} value={u}>
              {weakest.includes(u) ? `${unitName(u)} (약함)` : unitName(u)}
            </option>
          ))}
        </select>
      </div>
      {progress?.unit && progress.unit.days.length > 0 ? (
        <figure className="practice-chart" aria-label={`${unitName(progress.unit.unit)}의 날마다 속도와 오타율`}>
          <div className="practice-chart-box practice-chart-box-small">
            {seen && (
              <Suspense fallback={null}>
                <Charts.Unit days={progress.unit.days} />
              </Suspense>
            )}
          </div>
          <figcaption className="practice-muted" data-testid="practice-unit-summary">
            {unitSummary(progress.unit.unit, progress.unit.days)}
          </figcaption>
        </figure>
      ) : (
        <p className="practice-muted">
          {units.length === 0
            ? "연습을 하면 자모마다 날마다 어떻게 나아지는지 보여줍니다. 약한 자모가 먼저 나옵니다."
            : "이 자모를 친 기록이 아직 없습니다."}
        </p>
      )}
    </section>
  );
}

/** The last day against the target, in words (what the chart shows, also for screen readers). */
function goalSummary(series: SeriesPoint[], goal: Goal, own: boolean): string {
  const last = series[series.length - 1]!;
  const speed = last.wpm >= goal.wpm ? "속도 목표 달성" : `속도 목표까지 ${goal.wpm - last.wpm}타/분`;
  const accuracy =
    last.accuracy >= goal.accuracy
      ? "정확도 목표 달성"
      : `정확도 목표까지 ${Math.round((goal.accuracy - last.accuracy) * 10) / 10}%p`;
  return (
    `${series.length}일 연습 · 마지막 날(${last.day}) 평균 ${last.wpm}타/분, 정확도 ${last.accuracy}% · ` +
    `${own ? "목표" : "기본 목표"} ${goal.wpm}타/분, ${goal.accuracy}%: ${speed}, ${accuracy}`
  );
}

const ratePercent = (d: UnitDay) => `${Math.round(d.error_rate * 1000) / 10}%`;
const speedText = (d: UnitDay) => (d.speed === null ? "–" : `${d.speed}타/분`);

/** A jamo's first day against its last. */
function unitSummary(unit: string, days: UnitDay[]): string {
  const first = days[0]!;
  const last = days[days.length - 1]!;
  if (days.length === 1)
    return `${unitName(unit)}: ${first.day} 오타율 ${ratePercent(first)}, 속도 ${speedText(first)}`;
  return (
    `${unitName(unit)}: 오타율 ${ratePercent(first)} → ${ratePercent(last)}, ` +
    `속도 ${speedText(first)} → ${speedText(last)} (${first.day}부터 ${last.day}까지 ${days.length}일)`
  );
}

/**
 * The target's form: save it, or clear it (back to the default target). Clearing asks nothing: it says so and
 * offers to undo, which saves the cleared target again.
 */
function GoalForm({
  goal,
  save,
  clear,
}: {
  goal: Goal | null;
  save: (goal: Goal) => Promise<void>;
  clear: () => Promise<void>;
}) {
  const [wpm, setWpm] = useState("");
  const [accuracy, setAccuracy] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [cleared, setCleared] = useState<Goal | null>(null);
  useEffect(() => {
    const shown = goal ?? DEFAULT_GOAL;
    setWpm(String(shown.wpm));
    setAccuracy(String(shown.accuracy));
  }, [goal]);

  async function attempt(action: () => Promise<void>, failure: string) {
    try {
      await action();
      setError(null);
    } catch (problem) {
      setError(isApiError(problem) ? problem.detail : failure);
    }
  }

  const clearGoal = (old: Goal) =>
    attempt(async () => {
      await clear();
      setSaved(false);
      setCleared(old);
    }, "목표를 지우지 못했습니다.");

  const undoClear = (old: Goal) =>
    attempt(async () => {
      await save(old);
      setCleared(null);
    }, "목표를 되돌리지 못했습니다.");

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    setCleared(null);
    const next = { wpm: Number(wpm), accuracy: Number(accuracy) };
    const { wpm: w, accuracy: a } = GOAL_RANGE;
    if (!Number.isInteger(next.wpm) || next.wpm < w.min || next.wpm > w.max) {
      setError(`목표 속도는 ${w.min}–${w.max.toLocaleString("ko-KR")}타/분의 정수로 정해주세요.`);
      return;
    }
    if (!Number.isFinite(next.accuracy) || next.accuracy < a.min || next.accuracy > a.max) {
      setError(`목표 정확도는 ${a.min}–${a.max}%로 정해주세요.`);
      return;
    }
    try {
      await save(next);
      setError(null);
      setSaved(true);
    } catch (failure) {
      setError(isApiError(failure) ? failure.detail : "목표를 저장하지 못했습니다.");
    }
  }

  return (
    <form className="practice-goal" onSubmit={submit} aria-label="연습 목표" noValidate>
      <GoalField
        id="practice-goal-wpm"
        label="목표 속도 (타/분)"
        range={GOAL_RANGE.wpm}
        step={1}
        value={wpm}
        set={setWpm}
      />
      <GoalField
        id="practice-goal-accuracy"
        label="목표 정확도 (%)"
        range={GOAL_RANGE.accuracy}
        step={0.1}
        value={accuracy}
        set={setAccuracy}
      />
      <button type="submit" className="btn btn-primary btn-small">
        목표 저장
      </button>
      {goal && (
        <button type="button" className="btn btn-ghost btn-small" onClick={() => clearGoal(goal)}>
          목표 지우기
        </button>
      )}
      {cleared && (
        <p className="practice-muted practice-goal-saved" role="status" data-testid="practice-goal-cleared">
          목표를 지웠습니다. 기본 목표({DEFAULT_GOAL.wpm}타/분, {DEFAULT_GOAL.accuracy}%)로 봅니다.{" "}
          <button type="button" className="btn btn-ghost btn-small" onClick={() => undoClear(cleared)}>
            되돌리기
          </button>
        </p>
      )}
      {saved && (
        <p className="practice-muted practice-goal-saved" role="status">
          목표를 저장했습니다.
        </p>
      )}
      <ErrorNotice text={error} />
    </form>
  );
}

function GoalField(props: {
  id: string;
  label: string;
  range: { min: number; max: number };
  step: number;
  value: string;
  set: (value: string) => void;
}) {
  return (
    <div className="practice-goal-field">
      <label className="practice-label" htmlFor={props.id}>
        {props.label}
      </label>
      <input
        id={props.id}
        className="input"
        type="number"
        inputMode={Number.isInteger(props.step) ? "numeric" : "decimal"}
        min={props.range.min}
        max={props.range.max}
        step={props.step}
        value={props.value}
        onChange={(e) => props.set(e.target.value)}
      />
    </div>
  );
}
