import { type ChangeEvent, useId, useState } from "react";
import { parseTextListFile } from "../../../../modules/kernel/text-rules";
import {
  checkPrivateTexts,
  PRIVATE_MSG,
  PRIVATE_TEXT_RULES,
  PRIVATE_THEMES,
} from "../../../../modules/rooms/private-rules";

/** What a private room plays, as its form holds it: a theme of the product's, or the owner's lines. */
export interface TextsChoice {
  mode: "theme" | "own";
  theme: string;
  /** One sentence a line, as pasted or read from a file. */
  lines: string;
}

const MODES: [TextsChoice["mode"], string][] = [
  ["own", "직접 넣은 문장"],
  ["theme", "타자마당 문장"],
];

export const initialTexts: TextsChoice = { mode: "own", theme: PRIVATE_THEMES[0].theme, lines: "" };

/** The request's fields for a choice, checked with the server's own rule (modules/rooms/private-rules.ts). */
export function textsBody(
  choice: TextsChoice,
): { ok: true; body: { theme: string } | { texts: string[] } } | { ok: false; error: string } {
  if (choice.mode === "theme") return { ok: true, body: { theme: choice.theme } };
  const check = checkPrivateTexts(choice.lines.split("\n"));
  return check.ok ? { ok: true, body: { texts: check.value } } : { ok: false, error: check.error };
}

/**
 * Choosing a private room's sentences: the product's by theme, or the owner's own (pasted, or a text or JSON file
 * read here into the box: one sentence a line, 5–300 characters, at most 200).
 */
export function TextsEditor({ value, onChange }: { value: TextsChoice; onChange: (next: TextsChoice) => void }) {
  const id = useId();
  const [fileError, setFileError] = useState<string | null>(null);
  const count = value.lines.split("\n").filter((line) => line.trim()).length;

  async function readFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    const entries = parseTextListFile(file.name, file.type, await file.text());
    if (!entries?.every((entry) => typeof entry === "string")) return setFileError(PRIVATE_MSG.textsFormat);
    setFileError(null);
    onChange({ ...value, mode: "own", lines: (entries as string[]).join("\n") });
  }

  return (
    <fieldset className="texts-editor">
      <legend className="field-label">문장</legend>
      <div className="texts-modes">
        {MODES.map(([mode, label]) => (
          <label key={mode} className="texts-mode">
            <input
              type="radio"
              name={`${id}-mode`}
              checked={value.mode === mode}
              onChange={() => onChange({ ...value, mode })}
            />
            {label}
          </label>
        ))}
      </div>
      {value.mode === "theme" ? (
        <label className="field">
          <span className="field-label">주제</span>
          <select
            className="input"
            value={value.theme}
            onChange={(event) => onChange({ ...value, theme: event.target.value })}
          >
            {PRIVATE_THEMES.map((theme) => (
              <option key={theme.theme} value={theme.theme}>
                {theme.label}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <>
          <label className="field">
            <span className="field-label">
              한 줄에 한 문장 ({PRIVATE_TEXT_RULES.minLength}~{PRIVATE_TEXT_RULES.maxLength}자,{" "}
              {PRIVATE_TEXT_RULES.maxCount}개까지) · 지금 {count}개
            </span>
            <textarea
              className="input field-textarea texts-lines"
              value={value.lines}
              rows={6}
              placeholder={"가는 말이 고와야 오는 말이 곱다\n낮말은 새가 듣고 밤말은 쥐가 듣는다"}
              onChange={(event) => onChange({ ...value, lines: event.target.value })}
            />
          </label>
          <label className="btn btn-ghost btn-small texts-file">
            텍스트·JSON 파일에서 불러오기
            <input
              type="file"
              accept=".txt,.json,text/plain,application/json"
              className="sr-only"
              onChange={readFile}
            />
          </label>
          {fileError && (
            <p className="notice notice-error" role="alert">
              {fileError}
            </p>
          )}
        </>
      )}
    </fieldset>
  );
}
