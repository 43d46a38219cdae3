import {
  accuracyIcon,
  accuracyTone,
  type IconTier,
  medalOf,
  percent,
  seconds,
  speedIcon,
  streakLabel,
} from "./figures";
import { BoltIcon, FlameIcon, MedalBadge, TargetIcon } from "./icons";
import type { GameResult } from "./types";

/** The server awards medals only with at least two results in the game (modules/rooms/rewards.ts). */
const MEDAL_MIN_RESULTS = 2;

/** Results are shown as a top-5 list (spec §2, §9). */
export const TOP_RESULTS = 5;

/** `medals: false` shows places 1–3 as numbers (a game of one awards no medal; product-rules). */
export function Rank({ position, medals = true }: { position: number | null; medals?: boolean }) {
  const medal = medals ? medalOf(position) : null;
  if (medal) return <MedalBadge position={medal} />;
  return (
    <span className="result-rank" role="img" aria-label={position === null ? "순위 없음" : `${position}위`}>
      {position === null ? "–" : position}
    </span>
  );
}

/** The speed icon of spec §9 (400/300/200/100 타/분), coloured by tier. */
export function SpeedIcon({ wpm }: { wpm: number }) {
  const tier = speedIcon(wpm);
  return tier ? <BoltIcon className={tierClass("speed", tier)} label={tier.label} /> : null;
}

/** The accuracy icon of spec §9 (95/90/80/70 %), coloured by tier. */
export function AccuracyIcon({ accuracy }: { accuracy: number }) {
  const tier = accuracyIcon(accuracy);
  return tier ? <TargetIcon className={tierClass("acc", tier)} label={tier.label} /> : null;
}

const tierClass = (kind: "speed" | "acc", tier: IconTier) => `tier-icon ${kind}-tier-${tier.tier}`;

/** The top 5 of a game with medals, speed and accuracy icons and win streaks. */
export function ResultsList({
  results,
  mySessionId,
  compact = false,
}: {
  results: GameResult[];
  mySessionId?: string | null;
  compact?: boolean;
}) {
  const top = results.slice(0, TOP_RESULTS);
  if (top.length === 0) return <p className="results-empty muted">이번 게임에서는 문장을 완성한 사람이 없습니다.</p>;
  return (
    <ol className={`results${compact ? " results-compact" : ""}`} aria-label="게임 결과">
      {top.map((r) => {
        const streak = streakLabel(r.win_streak);
        const mine = r.session_id === mySessionId;
        return (
          <li key={r.session_id} className={`result${mine ? " result-mine" : ""}`}>
            <Rank position={r.position} medals={results.length >= MEDAL_MIN_RESULTS} />
            <span className="result-name">
              <span className="result-name-text">{r.nickname || r.username}</span>
              {r.is_anonymous && <span className="tag tag-anon">익명</span>}
              {streak && (
                <span className="tag tag-streak">
                  <FlameIcon />
                  {streak}
                </span>
              )}
            </span>
            <span className="result-figures">
              <span className="result-wpm">
                <SpeedIcon wpm={r.wpm} />
                <strong>{r.wpm}</strong>타/분
              </span>
              <span className={`result-acc acc-${accuracyTone(r.accuracy)}`}>
                <AccuracyIcon accuracy={r.accuracy} />
                {percent(r.accuracy)}
              </span>
              <span className="result-time muted">{seconds(r.completion_time)}</span>
            </span>
          </li>
        );
      })}
    </ol>
  );
}
