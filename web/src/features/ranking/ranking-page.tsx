import { Link } from "@tanstack/react-router";
import { type CSSProperties, useCallback, useEffect, useState } from "react";
import { api } from "../../lib/api";
import { useDocumentTitle } from "../../lib/title";
import { MedalBadge, MedalCounts } from "../../ui/medals";
import { ReportButton } from "../moderation/report-dialog";
import {
  CARD_ROWS,
  cardRows,
  DUEL_CARDS,
  displayName,
  GAME_CARDS,
  type MedalFigure,
  type RankingCard,
  type RankingEntry,
  rankMedal,
} from "./cards";

type Tab = "game" | "duel";
type CardState = { status: "loading" } | { status: "error" } | { status: "data"; entries: RankingEntry[] };

const LOAD_FAILED = "데이터를 불러오는데 실패했습니다.";
/** A loading card shows 5 placeholder rows (spec §2). */
const SKELETON_ROWS = ["a", "b", "c", "d", "e"];

/** /ranking (spec part 2 §2 "Rankings"): two tabs of independent cards, a refresh-all and a refresh per card. */
export function RankingPage() {
  useDocumentTitle("랭킹");
  const [tab, setTab] = useState<Tab>("game");
  // Bumped by "전체 새로고침": every card of the tab loads again.
  const [generation, setGeneration] = useState(0);
  const cards = tab === "game" ? GAME_CARDS : DUEL_CARDS;
  return (
    <div className="ranking-page">
      <header className="ranking-header">
        <h1 className="ranking-title">랭킹</h1>
        <button type="button" className="btn btn-ghost" onClick={() => setGeneration((g) => g + 1)}>
          전체 새로고침
        </button>
      </header>
      <div className="ranking-tabs" role="tablist" aria-label="랭킹 종류">
        {(
          [
            ["game", "타자 게임 랭킹"],
            ["duel", "1:1 대결 랭킹"],
          ] as const
        ).map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            className={tab === id ? "ranking-tab active" : "ranking-tab"}
            onClick={() => setTab(id)}
          >
            {label}
          </button>
        ))}
      </div>
      <div className="ranking-grid">
        {cards.map((card) => (
          <Card key={`${card.id}-${generation}`} card={card} />
        ))}
      </div>
      <aside className="ranking-rules" aria-label="랭킹 규칙">
        <h2>랭킹 규칙</h2>
        <ul>
          <li>오늘과 이번 주는 한국 시간(월요일 시작)으로 계산합니다.</li>
          <li>속도 랭킹은 평균 타자 속도, 판수 랭킹은 플레이한 게임 수 순서입니다.</li>
          <li>메달 점수는 금 3점, 은 2점, 동 1점입니다. 레벨 랭킹은 레벨, 같으면 경험치 순서입니다.</li>
          <li>비정상적으로 빠른 기록은 집계하지 않습니다.</li>
          <li>1:1 대결 승률은 10판 이상 대결한 사용자만, 최근 활동은 최근 7일의 대결만 집계합니다.</li>
        </ul>
      </aside>
    </div>
  );
}

function Card({ card }: { card: RankingCard }) {
  const [state, setState] = useState<CardState>({ status: "loading" });
  const load = useCallback(() => {
    setState({ status: "loading" });
    api
      .get<RankingEntry[]>(`/api${card.path}`, { auth: false })
      .then((entries) => {
        if (!Array.isArray(entries)) throw new Error("not a ranking");
        setState({ status: "data", entries: entries.slice(0, CARD_ROWS) });
      })
      .catch(() => setState({ status: "error" }));
  }, [card.path]);
  useEffect(load, [load]);

  return (
    <section className="ranking-card" aria-labelledby={`ranking-${card.id}`} data-card={card.id}>
      <header className="ranking-card-header">
        <h2 id={`ranking-${card.id}`}>{card.title}</h2>
        <button type="button" className="ranking-refresh" onClick={load} aria-label={`${card.title} 새로고침`}>
          ↻
        </button>
      </header>
      {card.note && <p className="ranking-note">{card.note}</p>}
      {/* Holds the height of the full list (and its count) in every state: nothing below moves on an answer. */}
      <div className="ranking-body" style={{ "--ranking-rows": cardRows(card) } as CSSProperties}>
        <CardBody state={state} card={card} retry={load} />
      </div>
    </section>
  );
}

function CardBody({ state, card, retry }: { state: CardState; card: RankingCard; retry: () => void }) {
  if (state.status === "loading") {
    return (
      <ol className="ranking-list" aria-busy="true" aria-label="불러오는 중">
        {SKELETON_ROWS.map((row) => (
          <li key={row} className="ranking-skeleton" />
        ))}
      </ol>
    );
  }
  if (state.status === "error") {
    return (
      <div className="ranking-error" role="alert">
        <p>{LOAD_FAILED}</p>
        <button type="button" className="btn btn-ghost" onClick={retry}>
          다시 시도
        </button>
      </div>
    );
  }
  if (state.entries.length === 0) return <p className="ranking-empty">아직 기록이 없습니다.</p>;
  return (
    <>
      <ol className="ranking-list">
        {state.entries.map((entry, index) => {
          const rank = index + 1;
          const medal = rankMedal(rank);
          return (
            <li key={`${entry.user_id ?? displayName(entry)}-${rank}`} className="ranking-row">
              <span className="ranking-rank">
                {medal ? (
                  <MedalBadge position={medal} />
                ) : (
                  <>
                    {rank}
                    <span className="sr-only">위</span>
                  </>
                )}
              </span>
              <span className="ranking-name">
                {displayName(entry)}
                {entry.user_id !== null && (
                  <ReportButton
                    target={{
                      kind: "player",
                      user_id: entry.user_id,
                      ...("replay_key" in entry && entry.replay_key ? { replay_key: entry.replay_key } : {}),
                    }}
                    subject={`플레이어 ${displayName(entry)} (랭킹 ${rank}위)`}
                    authorId={entry.user_id}
                  />
                )}
              </span>
              <span className="ranking-figure">
                <Figure value={card.figure(entry)} />
                {"replay_key" in entry && entry.replay_key ? (
                  <Link
                    to="/replay/$key"
                    params={{ key: entry.replay_key }}
                    className="ranking-replay"
                    aria-label={`리플레이: ${displayName(entry)}`}
                  >
                    리플레이
                  </Link>
                ) : null}
              </span>
            </li>
          );
        })}
      </ol>
      <footer className="ranking-footer">{state.entries.length}명</footer>
    </>
  );
}

function Figure({ value }: { value: string | MedalFigure }) {
  return typeof value === "string" ? value : <MedalCounts {...value} />;
}
