import { Link } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import type { PracticeSummary } from "../../../../modules/practice";
import { unitName } from "../../../../modules/practice/keystroke-model";
import { KIND_NAMES } from "../../../../modules/practice/rules";
import { api } from "../../lib/api";

/** 125.5 minutes → "2시간 6분"; under an hour, minutes alone. */
export function practiceTime(minutes: number): string {
  const total = Math.round(minutes);
  const hours = Math.floor(total / 60);
  return hours > 0 ? `${hours.toLocaleString("ko-KR")}시간 ${total % 60}분` : `${total}분`;
}

type Load = { status: "loading" } | { status: "error" } | { status: "data"; value: PracticeSummary };

/**
 * The member's 타자 연습 (modules/practice README; `GET /api/practice/summary`): all the practice time, 연속 연습, the
 * best speed of each kind and the weakest jamo. Practice is not a game: none of it is in the typing figures or the
 * statistics tabs, which are the games' (modules/profile README "One definition of each figure").
 */
export function PracticeCard() {
  const [summary, setSummary] = useState<Load>({ status: "loading" });
  useEffect(() => {
    let live = true;
    api
      .get<PracticeSummary>("/api/practice/summary")
      .then((value) => live && setSummary({ status: "data", value }))
      .catch(() => live && setSummary({ status: "error" }));
    return () => {
      live = false;
    };
  }, []);
  return (
    <section className="profile-card" aria-label="타자 연습 기록" data-testid="profile-practice">
      <h2>타자 연습</h2>
      {summary.status === "loading" ? (
        <p className="profile-muted">불러오는 중…</p>
      ) : summary.status === "error" ? (
        <p className="profile-muted">연습 기록을 불러오는데 실패했습니다.</p>
      ) : summary.value.results === 0 ? (
        <p className="profile-muted">
          아직 연습 기록이 없습니다. <Link to="/practice">타자 연습</Link>에서 약한 자모를 찾아 보세요.
        </p>
      ) : (
        <dl>
          <PracticeFigure label="연습 시간" value={practiceTime(summary.value.total_minutes)} />
          <PracticeFigure label="연속 연습" value={`${summary.value.streak}일`} />
          <PracticeFigure label="연습한 날" value={`${summary.value.practice_days}일`} />
          {summary.value.best.map((best) => (
            <PracticeFigure
              key={best.kind}
              label={`최고 속도 (${KIND_NAMES[best.kind as keyof typeof KIND_NAMES] ?? best.kind})`}
              value={`${best.wpm}타/분`}
            />
          ))}
          <PracticeFigure
            label="약한 자모"
            value={
              summary.value.weakest.length > 0
                ? summary.value.weakest.map((f) => unitName(f.unit)).join(", ")
                : "아직 없음"
            }
          />
        </dl>
      )}
    </section>
  );
}

function PracticeFigure({ label, value }: { label: string; value: string }) {
  return (
    <div className="profile-figure">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
