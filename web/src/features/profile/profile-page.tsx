import { Link } from "@tanstack/react-router";
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import type { DuelStatsAnswer } from "../../../../modules/duel";
import { api } from "../../lib/api";
import { useDocumentTitle } from "../../lib/title";
import { PracticeCard } from "./practice-card";
import {
  accuracyTone,
  analysis,
  clickHeader,
  type GameRecord,
  pageWindow,
  RECORDS_PER_PAGE,
  roomChoices,
  roomOf,
  SORT_CHOICES,
  type Sort,
  type SortField,
  seoulTime,
  sortRecords,
  streakTone,
  wpmTone,
} from "./records";

/** recharts only in the analysis tab's own chunk. */
const ProfileCharts = lazy(() => import("./profile-charts"));

type Tab = "info" | "stats" | "analysis" | "records";
const TABS: [Tab, string][] = [
  ["info", "기본 정보"],
  ["stats", "게임 통계"],
  ["analysis", "활동 분석"],
  ["records", "게임 기록"],
];

interface Me {
  id: number;
  username: string;
  email: string;
  level: number;
  experience: number;
  next_level_experience: number;
  points: number;
  coins: number;
  total_earned_points: number;
  total_spent_points: number;
  gold_medals: number;
  silver_medals: number;
  bronze_medals: number;
  games_played: number;
  avg_wpm: number;
  avg_accuracy: number;
  win_streak: number;
  max_win_streak: number;
  created_at: string;
}

/** `GET /api/games/best/user/{id}`: best speed and accuracy over every counted result (not only the 200 listed). */
interface Best {
  best_wpm: number;
  best_accuracy: number;
}

/** What the stats, analysis and records tabs read besides `/api/users/me`. */
interface History {
  records: GameRecord[];
  best: Best;
}

/** `GET /api/duel/stats/me`: the member's duel figures, shown apart (a duel is not a typing-speed result). */
type Load<T> = { status: "loading" } | { status: "error"; text: string } | { status: "data"; value: T };

/** /profile (spec part 2 §2 "Profile"): login required (the route's guard); four tabs. */
export function ProfilePage() {
  useDocumentTitle("프로필");
  const [tab, setTab] = useState<Tab>("info");
  const [me, setMe] = useState<Load<Me>>({ status: "loading" });
  const [history, setHistory] = useState<Load<History>>({ status: "loading" });

  const load = useCallback(async () => {
    let user: Me;
    try {
      user = await api.get<Me>("/api/users/me");
      setMe({ status: "data", value: user });
    } catch {
      setMe({ status: "error", text: "사용자 정보를 불러오는데 실패했습니다." });
      return;
    }
    try {
      const [records, best] = await Promise.all([
        api.get<GameRecord[]>(`/api/games/results/user/${user.id}?limit=200`),
        api.get<Best>(`/api/games/best/user/${user.id}`),
      ]);
      setHistory({ status: "data", value: { records, best } });
    } catch {
      setHistory({ status: "error", text: "게임 기록을 불러오는데 실패했습니다." });
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);
  // Refetched on entering the stats, analysis or records tab, and when the window regains focus on one of them.
  useEffect(() => {
    if (tab === "info") return;
    void load();
    const onFocus = () => void load();
    window.addEventListener("focus", onFocus);
    return () => window.removeEventListener("focus", onFocus);
  }, [tab, load]);

  const failed = me.status === "error" ? me.text : history.status === "error" && tab !== "info" ? history.text : null;
  return (
    <div className="profile-page">
      <h1 className="profile-title">프로필</h1>
      <div className="profile-tabs" role="tablist" aria-label="프로필">
        {TABS.map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            className={tab === id ? "profile-tab active" : "profile-tab"}
            onClick={() => setTab(id)}
          >
            {label}
          </button>
        ))}
      </div>
      {failed ? (
        <section className="profile-error" role="alert">
          <h2>오류가 발생했습니다</h2>
          <p>{failed}</p>
          <button type="button" className="btn btn-ghost" onClick={() => void load()}>
            다시 시도
          </button>
        </section>
      ) : me.status !== "data" || (tab !== "info" && history.status !== "data") ? (
        <p className="profile-muted">불러오는 중…</p>
      ) : (
        <TabBody tab={tab} me={me.value} history={history.status === "data" ? history.value : null} reload={load} />
      )}
    </div>
  );
}

function TabBody({ tab, me, history, reload }: { tab: Tab; me: Me; history: History | null; reload: () => void }) {
  if (tab === "info" || !history) return <InfoTab me={me} />;
  if (tab === "stats") return <StatsTab me={me} best={history.best} />;
  if (tab === "analysis") return <AnalysisTab me={me} records={history.records} best={history.best} />;
  return <RecordsTab records={history.records} reload={reload} />;
}

/**
 * The player's figures as every page shows them (navbar, rankings, admin): the server's, one definition each
 * (modules/profile/README.md), the same labels and formats on every tab.
 */
const figureText = {
  speed: (wpm: number) => `${wpm.toFixed(1)}타/분`,
  accuracy: (accuracy: number) => `${accuracy.toFixed(1)}%`,
};

function Figure({ label, value, tone }: { label: string; value: string | number; tone?: string }) {
  return (
    <div className="profile-figure">
      <dt>{label}</dt>
      <dd className={tone ? `tone-${tone}` : undefined}>{value}</dd>
    </div>
  );
}

/** Games and averages: the account's figures, the same in every tab (modules/profile README "One definition"). */
function TypingFigures({ me }: { me: Me }) {
  return (
    <>
      <Figure label="게임 수" value={me.games_played} />
      <Figure label="평균 속도" value={figureText.speed(me.avg_wpm)} tone={wpmTone(me.avg_wpm)} />
      <Figure label="평균 정확도" value={figureText.accuracy(me.avg_accuracy)} tone={accuracyTone(me.avg_accuracy)} />
    </>
  );
}

/** The medal counts as words, never emoji (emoji fonts are missing on many desktops: ui/medals.tsx). */
function MedalFigures({ me }: { me: Me }) {
  return (
    <>
      <Figure label="금메달" value={me.gold_medals} />
      <Figure label="은메달" value={me.silver_medals} />
      <Figure label="동메달" value={me.bronze_medals} />
      <Figure label="합계" value={me.gold_medals + me.silver_medals + me.bronze_medals} />
    </>
  );
}

function InfoTab({ me }: { me: Me }) {
  const progress = me.next_level_experience > 0 ? Math.min(100, (me.experience / me.next_level_experience) * 100) : 0;
  return (
    <div className="profile-grid">
      <section className="profile-card">
        <h2>{me.username}</h2>
        <dl>
          <Figure label="이메일" value={me.email} />
          <Figure label="가입일" value={seoulTime(me.created_at)} />
        </dl>
      </section>
      <section className="profile-card">
        <h2>레벨 {me.level}</h2>
        <div
          className="profile-progress"
          role="progressbar"
          aria-label="다음 레벨까지"
          aria-valuenow={Math.round(progress)}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <span style={{ width: `${progress}%` }} />
        </div>
        <p className="profile-muted">
          경험치 {me.experience.toLocaleString("ko-KR")} / {me.next_level_experience.toLocaleString("ko-KR")}
        </p>
      </section>
      <section className="profile-card">
        <h2>재화</h2>
        <dl>
          <Figure label="포인트" value={me.points.toLocaleString("ko-KR")} />
          <Figure label="코인" value={me.coins.toLocaleString("ko-KR")} />
          <Figure label="누적 획득 포인트" value={me.total_earned_points.toLocaleString("ko-KR")} />
          <Figure label="누적 사용 포인트" value={me.total_spent_points.toLocaleString("ko-KR")} />
        </dl>
      </section>
      <section className="profile-card">
        <h2>메달</h2>
        <dl>
          <MedalFigures me={me} />
        </dl>
      </section>
      <section className="profile-card">
        <h2>타자 기록</h2>
        <dl>
          <TypingFigures me={me} />
          <Figure label="최다 연승" value={me.max_win_streak} />
        </dl>
      </section>
      <DuelCard />
      <PracticeCard />
      <section className="profile-card">
        <h2>차단</h2>
        <p className="profile-muted">차단한 사용자의 채팅과 글은 내게 보이지 않습니다.</p>
        <Link to="/profile/blocks" className="btn btn-ghost btn-small">
          차단한 사용자 관리
        </Link>
      </section>
    </div>
  );
}

/** Positive: wins in a row; negative: losses in a row. */
const streakText = (streak: number) => (streak > 0 ? `${streak}연승` : streak < 0 ? `${-streak}연패` : "없음");

/**
 * The member's 1:1 duel figures (rating, wins, losses, draws, streaks): a duel is not a typing-speed result, so they
 * are not in the typing figures or the statistics tabs but here, from the duel module's own route.
 */
function DuelCard() {
  const [duel, setDuel] = useState<Load<DuelStatsAnswer>>({ status: "loading" });
  useEffect(() => {
    let live = true;
    api
      .get<DuelStatsAnswer>("/api/duel/stats/me")
      .then((value) => live && setDuel({ status: "data", value }))
      .catch(() => live && setDuel({ status: "error", text: "대결 기록을 불러오는데 실패했습니다." }));
    return () => {
      live = false;
    };
  }, []);
  return (
    <section className="profile-card" aria-label="1:1 대결 기록">
      <h2>1:1 대결</h2>
      {duel.status === "loading" ? (
        <p className="profile-muted">불러오는 중…</p>
      ) : duel.status === "error" ? (
        <p className="profile-muted">{duel.text}</p>
      ) : (
        <>
          <dl>
            <Figure label="레이팅" value={duel.value.rating.toLocaleString("ko-KR")} />
            <Figure label="승" value={duel.value.wins} />
            <Figure label="패" value={duel.value.losses} />
            <Figure label="무" value={duel.value.draws} />
            <Figure label="현재 연속" value={streakText(duel.value.current_streak)} />
            <Figure label="최다 연승" value={duel.value.max_win_streak} />
          </dl>
          {duel.value.total_games === 0 && <p className="profile-muted">아직 레이팅에 반영된 대결이 없습니다.</p>}
        </>
      )}
    </section>
  );
}

/** The stats tab: the server's figures (the account's and the best of every counted result), not the records'. */
function StatsTab({ me, best }: { me: Me; best: Best }) {
  return (
    <div className="profile-grid">
      <section className="profile-card">
        <h2>참여 현황</h2>
        <dl>
          <TypingFigures me={me} />
        </dl>
      </section>
      <section className="profile-card">
        <h2>최고 기록</h2>
        <dl>
          <Figure label="최고 속도" value={`${best.best_wpm}타/분`} tone={wpmTone(best.best_wpm)} />
          <Figure label="최고 정확도" value={`${best.best_accuracy}%`} tone={accuracyTone(best.best_accuracy)} />
        </dl>
      </section>
      <section className="profile-card">
        <h2>메달 현황</h2>
        <dl>
          <MedalFigures me={me} />
        </dl>
      </section>
    </div>
  );
}

/**
 * The analysis tab: best speed and win streaks are the server's (the same figures as the other tabs, same labels);
 * the rank analysis, days in a row, charts and rooms come from the latest records and say so.
 */
function AnalysisTab({ me, records, best }: { me: Me; records: GameRecord[]; best: Best }) {
  if (records.length === 0) return <p className="profile-empty">아직 게임 기록이 없습니다. 게임을 플레이해 보세요!</p>;
  const a = analysis(records, Date.now());
  return (
    <div className="profile-analysis">
      <div className="profile-grid">
        <section className="profile-card">
          <h2>최고 기록</h2>
          <dl>
            <Figure label="최고 속도" value={`${best.best_wpm}타/분`} tone={wpmTone(best.best_wpm)} />
            <Figure label="현재 연승" value={me.win_streak} tone={streakTone(me.win_streak)} />
            <Figure label="최다 연승" value={me.max_win_streak} tone={streakTone(me.max_win_streak)} />
          </dl>
        </section>
        <section className="profile-card">
          <h2>순위 분석</h2>
          <dl>
            <Figure label="1위 횟수" value={a.firstPlaces} />
            <Figure label="승률" value={`${a.winRate}%`} />
            <Figure label="TOP 3 비율" value={`${a.top3Rate}%`} />
            <Figure label="평균 순위" value={a.averagePosition ? `${a.averagePosition}위` : "-"} />
            <Figure label="TOP 3 횟수" value={a.top3Count} />
          </dl>
        </section>
        <section className="profile-card">
          <h2>연속 기록</h2>
          <dl>
            <Figure label="현재 연속 플레이" value={`${a.currentDays}일`} tone={streakTone(a.currentDays)} />
            <Figure label="최대 연속 플레이" value={`${a.longestDays}일`} tone={streakTone(a.longestDays)} />
          </dl>
        </section>
      </div>
      <p className="profile-muted" data-testid="analysis-basis">
        순위 분석, 연속 플레이, 차트와 방별 기록은 최근 {records.length}판의 기록으로 계산합니다.
      </p>
      <Suspense fallback={<p className="profile-muted">차트를 불러오는 중…</p>}>
        <ProfileCharts trend={a.trend} hours={a.hours} rooms={a.rooms} />
      </Suspense>
      <div className="profile-grid">
        {a.rooms.slice(0, 5).map((room) => (
          <section key={room.room} className="profile-card" data-room={room.room}>
            <h2>{room.room}</h2>
            <dl>
              <Figure label="게임 수" value={room.games} />
              <Figure label="평균 속도" value={`${room.avgWpm}타/분`} tone={wpmTone(room.avgWpm)} />
              <Figure label="평균 정확도" value={`${room.avgAccuracy}%`} tone={accuracyTone(room.avgAccuracy)} />
              <Figure label="승률" value={`${room.winRate}%`} />
            </dl>
          </section>
        ))}
      </div>
    </div>
  );
}

const HEADERS: [SortField | null, string][] = [
  [null, "방"],
  ["wpm", "속도"],
  ["accuracy", "정확도"],
  [null, "완료 시간"],
  ["position", "순위"],
  ["created_at", "날짜"],
  [null, "리플레이"],
];

function RecordsTab({ records, reload }: { records: GameRecord[]; reload: () => void }) {
  const [sort, setSort] = useState<Sort>(SORT_CHOICES[0].sort);
  const [room, setRoom] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const shown = sortRecords(records, sort, room);
  const pages = Math.max(1, Math.ceil(shown.length / RECORDS_PER_PAGE));
  const current = Math.min(page, pages);
  const rows = shown.slice((current - 1) * RECORDS_PER_PAGE, current * RECORDS_PER_PAGE);
  // ISO 8601 times sort as text: the newest is the last.
  const latest =
    records
      .map((r) => r.created_at)
      .sort()
      .at(-1) ?? "";
  const choose = (next: Sort) => {
    setSort(next);
    setPage(1);
  };
  return (
    <section className="profile-records">
      <div className="profile-records-bar">
        <button type="button" className="btn btn-ghost" onClick={reload}>
          새로고침
        </button>
        <select
          aria-label="방 필터"
          value={room ?? ""}
          onChange={(event) => {
            setRoom(event.target.value || null);
            setPage(1);
          }}
        >
          <option value="">전체 방</option>
          {roomChoices(records).map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <select
          aria-label="정렬"
          value={SORT_CHOICES.findIndex((c) => c.sort.field === sort.field && c.sort.direction === sort.direction)}
          onChange={(event) => choose(SORT_CHOICES[Number(event.target.value)].sort)}
        >
          {SORT_CHOICES.map((choice, index) => (
            <option key={choice.label} value={index}>
              {choice.label}
            </option>
          ))}
        </select>
        <span className="profile-muted">총 {shown.length}개</span>
      </div>
      <div className="profile-table-wrap">
        <table className="profile-table">
          <thead>
            <tr>
              {HEADERS.map(([field, label]) => (
                <th
                  key={label}
                  aria-sort={field === sort.field ? (sort.direction === "asc" ? "ascending" : "descending") : undefined}
                >
                  {field ? (
                    <button type="button" onClick={() => choose(clickHeader(sort, field))}>
                      {label}
                      {field === sort.field ? (sort.direction === "asc" ? " ▲" : " ▼") : ""}
                    </button>
                  ) : (
                    label
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((record) => (
              <tr key={record.id}>
                <td>{roomOf(record)}</td>
                <td className={`tone-${wpmTone(record.wpm)}`}>{record.wpm}타/분</td>
                <td className={`tone-${accuracyTone(record.accuracy)}`}>{record.accuracy.toFixed(1)}%</td>
                <td>{record.completion_time.toFixed(1)}초</td>
                <td>{record.position === null ? "-" : `${record.position}위`}</td>
                <td>{seoulTime(record.created_at)}</td>
                <td>
                  {record.replay_key ? (
                    <Link
                      to="/replay/$key"
                      params={{ key: record.replay_key }}
                      aria-label={`리플레이: ${roomOf(record)} ${seoulTime(record.created_at)}`}
                    >
                      리플레이
                    </Link>
                  ) : (
                    "-"
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length === 0 && <p className="profile-empty">아직 게임 기록이 없습니다.</p>}
      <nav className="profile-pager" aria-label="기록 페이지">
        <button type="button" disabled={current <= 1} onClick={() => setPage(current - 1)}>
          이전
        </button>
        {pageWindow(current, pages).map((p, index) =>
          p === "…" ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: the two gaps are told apart only by their place
            <span key={`gap-${index}`}>…</span>
          ) : (
            <button
              key={p}
              type="button"
              aria-current={p === current ? "page" : undefined}
              className={p === current ? "active" : undefined}
              onClick={() => setPage(p)}
            >
              {p}
            </button>
          ),
        )}
        <button type="button" disabled={current >= pages} onClick={() => setPage(current + 1)}>
          다음
        </button>
      </nav>
      <footer className="profile-muted">
        총 {records.length}개의 기록{latest && ` · 최근 기록 ${seoulTime(latest)}`}
      </footer>
    </section>
  );
}
