import type { Lane } from "./types";

/**
 * Every racer's lane while a round is up (product-rules "Live race and replays"): name, a bar filling along the
 * sentence (the correct prefix's share), live 타/분 and, once finished, the place. The player's own lane is marked.
 * Each lane is a labelled progressbar, so a screen reader hears "앨리스 진행률, 40%, 180타/분".
 */
export function RaceLanes({ lanes, myKey }: { lanes: Lane[]; myKey: string | null }) {
  if (lanes.length === 0) return null;
  return (
    <ol className="lanes" aria-label="참가자 진행 상황">
      {lanes.map((lane) => {
        const mine = String(lane.key) === myKey;
        const percent = Math.round(lane.progress * 100);
        const finish = lane.completed ? (lane.position ? `${lane.position}위` : "완료") : null;
        const valueText = `${percent}% · ${lane.wpm}타/분${finish ? ` · ${finish}` : ""}`;
        return (
          <li
            key={String(lane.key)}
            className={`lane${mine ? " lane-mine" : ""}${lane.completed ? " lane-done" : ""}`}
            data-lane-key={String(lane.key)}
          >
            <span className="lane-name">
              {lane.name}
              {mine && <span className="lane-me">나</span>}
            </span>
            <div
              className="lane-track"
              role="progressbar"
              aria-label={`${lane.name} 진행률`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              aria-valuetext={valueText}
            >
              <div className="lane-fill" style={{ width: `${percent}%` }} />
            </div>
            <span className="lane-wpm" aria-hidden="true">
              {lane.wpm}
              <small>타/분</small>
            </span>
            <span className="lane-finish" aria-hidden="true">
              {finish}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
