/**
 * The on-screen keyboard of the chosen layout (modules/practice/layouts.ts): as a guide it lights the next key, the
 * Shift to hold and names the finger; as a heat map it shades each key by the player's error rate. The drawing is
 * decoration for sighted players (aria-hidden): the guide's sentence and the statistics table say the same in words.
 */
import { FINGER_NAMES, type KeyboardLayout, type KeyCap, unitOf } from "../../../../modules/practice/key-caps";
import { type UnitFigures, unitName } from "../../../../modules/practice/keystroke-model";

const SHIFT_NAMES = { ShiftLeft: "왼쪽 Shift", ShiftRight: "오른쪽 Shift" } as const;

/** In words: the next key, its Shift and its finger ("Backspace" after a mistake). */
export function nextKeyText(next: string | null, layout: KeyboardLayout): string {
  if (next === null) return "줄을 다 쳤습니다. Enter를 누르세요.";
  if (next === "Backspace") return "틀린 글자가 있습니다. Backspace로 지우세요.";
  const stroke = layout.strokeOf(next);
  if (!stroke) return `다음 글자: ${next}`;
  const { cap, shift } = stroke;
  const key = cap.code === "Space" ? "스페이스" : `${unitName(next)} (${cap.letter})`;
  const hand = shift ? ` + ${SHIFT_NAMES[shift]} (${shift === "ShiftLeft" ? "왼손" : "오른손"} 새끼)` : "";
  return `다음 키: ${key}${hand}, ${FINGER_NAMES[cap.finger]} 손가락`;
}

const capText = (cap: KeyCap) => (cap.shifted && cap.shifted !== cap.jamo ? `${cap.shifted} ${cap.jamo}` : cap.jamo);

function Key({ cap, lit, heat }: { cap: KeyCap; lit: boolean; heat?: UnitFigures }) {
  const tone = heat ? heatTone(heat) : "";
  return (
    <div
      className={`practice-key finger-${cap.finger}${lit ? " practice-key-next" : ""}${tone}`}
      data-key={cap.code}
      data-next={lit ? "true" : undefined}
    >
      <span className="practice-key-jamo">{capText(cap)}</span>
      <span className="practice-key-letter">{heat ? heatLabel(heat) : cap.letter}</span>
    </div>
  );
}

const heatLabel = (f: UnitFigures) => (f.hits === 0 ? "–" : `${Math.round(f.error_rate * 100)}%`);
function heatTone(f: UnitFigures): string {
  if (f.hits === 0) return " heat-none";
  if (f.error_rate >= 0.15) return " heat-bad";
  if (f.error_rate >= 0.05) return " heat-fair";
  return " heat-good";
}

function ShiftKey({ side, lit }: { side: "ShiftLeft" | "ShiftRight"; lit: boolean }) {
  return (
    <div className={`practice-key practice-key-wide${lit ? " practice-key-next" : ""}`} data-key={side}>
      <span className="practice-key-letter">Shift</span>
    </div>
  );
}

const rowClass = (row: readonly KeyCap[]) =>
  `practice-key-row${row[0]?.row === "home" ? " practice-key-row-home" : ""}`;

/** The guide: the keyboard with the next key (and Shift) lit; Backspace ends the first row, Shift the last. */
export function KeyboardGuide({ next, layout }: { next: string | null; layout: KeyboardLayout }) {
  const stroke = next && next !== "Backspace" ? layout.strokeOf(next) : undefined;
  const lit = (cap: KeyCap) => stroke?.cap.code === cap.code;
  const last = layout.rows.length - 1;
  return (
    <div className="practice-keyboard" aria-hidden="true" data-testid="practice-keyboard" data-layout={layout.id}>
      {layout.rows.map((row, i) => (
        <div key={row[0]!.code} className={rowClass(row)}>
          {i === last && <ShiftKey side="ShiftLeft" lit={stroke?.shift === "ShiftLeft"} />}
          {row.map((cap) => (
            <Key key={cap.code} cap={cap} lit={lit(cap)} />
          ))}
          {i === last && <ShiftKey side="ShiftRight" lit={stroke?.shift === "ShiftRight"} />}
          {i === 0 && (
            <div
              className={`practice-key practice-key-wide${next === "Backspace" ? " practice-key-next" : ""}`}
              data-key="Backspace"
            >
              <span className="practice-key-letter">⌫</span>
            </div>
          )}
        </div>
      ))}
      <div className="practice-key-row">
        <div className={`practice-key practice-key-space${next === " " ? " practice-key-next" : ""}`} data-key="Space">
          <span className="practice-key-letter">스페이스</span>
        </div>
      </div>
    </div>
  );
}

/** The heat map: each key with its error rate (a Shift key shares its key; the key shows the plain one's). */
export function HeatKeyboard({ figures, layout }: { figures: readonly UnitFigures[]; layout: KeyboardLayout }) {
  const byUnit = new Map(figures.map((f) => [f.unit, f]));
  return (
    <div
      className="practice-keyboard practice-heat"
      aria-hidden="true"
      data-testid="practice-heat"
      data-layout={layout.id}
    >
      {layout.rows.map((row) => (
        <div key={row[0]!.code} className={rowClass(row)}>
          {row.map((cap) => (
            <Key key={cap.code} cap={cap} lit={false} heat={cap.jamo ? byUnit.get(unitOf(cap.jamo)) : undefined} />
          ))}
        </div>
      ))}
    </div>
  );
}
