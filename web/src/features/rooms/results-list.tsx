import {
  accuracyIcon,
  accuracyTone,
  awardedMedal,
  type IconTier,
  percent,
  seconds,
  speedIcon,
  streakLabel,
} from "./figures";
import { BoltIcon, FlameIcon, MedalBadge, TargetIcon } from "./icons";
import type { GameResult } from "./types";

/** Results are shown as a top-5 list (spec §2, §9). */
export const TOP_RESULTS = 5;

/** A medal badge when the server awarded one, else the place as a number ("–" without a place). */
export function Rank({ position, medal = null }: { position: number | null; medal?: 1 | 2 | 3 | null }) {
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

/** Speed, accuracy and time of a placed result, with the icons of its tiers. */
function PlacedFigures({ result }: { result: GameResult }) {
  return (
    <span className="result-figures">
      <span className="result-wpm">
        <SpeedIcon wpm={result.wpm} />
        <strong>{result.wpm}</strong>타/분
      </span>
      <span className={`result-acc acc-${accuracyTone(result.accuracy)}`}>
        <AccuracyIcon accuracy={result.accuracy} />
        {percent(result.accuracy)}
      </span>
      <span className="result-time muted">{seconds(result.completion_time)}</span>
    </span>
  );
}

/**
 * A result without a place (below the position accuracy) in plain text: no icons, no bold speed, so a junk
 * answer typed fast does not look like a record.
 */
function UnplacedFigures({ result }: { result: GameResult }) {
  return (
    <span className="result-figures result-figures-plain muted">
      {result.wpm}타/분 · 정확도 {percent(result.accuracy)} · {seconds(result.completion_time)}
    </span>
  );
}

/**
 * The top 5 of a game with medals (as the server awarded them), speed and accuracy icons and win streaks.
 * `participants`: results in the game (game:results says it; a chat result line carries every result).
 */
export function ResultsList({
  results,
  participants = results.length,
  mySessionId,
  compact = false,
}: {
  results: GameResult[];
  participants?: number;
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
            <Rank position={r.position} medal={awardedMedal(r, participants)} />
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
            {r.position === null ? <UnplacedFigures result={r} /> : <PlacedFigures result={r} />}
          </li>
        );
      })}
    </ol>
  );
}
