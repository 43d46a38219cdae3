/**
 * Medals drawn with CSS (styles/app.css "medals"), never as emoji: emoji fonts are missing on many Linux desktops
 * and kiosks, where 🥇 shows as an empty box. Used by the rooms' results, the rankings and the navbar.
 */

/** Places 1–3 get a gold, silver or bronze medal: the rooms' results and the rankings' ranks alike. */
export const medalOf = (position: number | null): 1 | 2 | 3 | null =>
  position === 1 || position === 2 || position === 3 ? position : null;

const MEDAL_NAMES = { 1: "금메달", 2: "은메달", 3: "동메달" } as const;

/** A gold, silver or bronze medal badge with the place in it (places 1–3); read as "1위". */
export function MedalBadge({ position }: { position: 1 | 2 | 3 }) {
  return (
    <span
      className={`medal-badge medal-badge-${position}`}
      role="img"
      aria-label={`${position}위`}
      title={MEDAL_NAMES[position]}
    >
      {position}
    </span>
  );
}

export type MedalKind = "gold" | "silver" | "bronze";
const KIND_NAMES: Record<MedalKind, string> = { gold: "금메달", silver: "은메달", bronze: "동메달" };

/** A count of one kind of medal: a small disc in the medal's colour and the number ("금메달 2" when read). */
export function MedalCount({ kind, count }: { kind: MedalKind; count: number }) {
  return (
    <span className={`medal medal-${kind}`} title={KIND_NAMES[kind]}>
      <span className="medal-dot" aria-hidden="true" />
      <span className="sr-only">{KIND_NAMES[kind]} </span>
      {count.toLocaleString("ko-KR")}
    </span>
  );
}

/** Gold, silver and bronze counts side by side. */
export function MedalCounts({ gold, silver, bronze }: { gold: number; silver: number; bronze: number }) {
  return (
    <span className="medal-counts">
      <MedalCount kind="gold" count={gold} />
      <MedalCount kind="silver" count={silver} />
      <MedalCount kind="bronze" count={bronze} />
    </span>
  );
}
