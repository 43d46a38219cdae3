/**
 * The answer box of the typing games (the guild game, 오늘의 문장): the input with IME-safe Enter and a submit
 * button. Rooms keep their own box (chat and answers share it) but the same IME-safe Enter (`isSendingEnter`).
 */
import type { KeyboardEvent } from "react";

/** Enter sends, except the Enter that ends a Hangul composition: that one belongs to the IME. */
export function isSendingEnter(event: KeyboardEvent<HTMLElement>): boolean {
  if (event.key !== "Enter" || event.shiftKey) return false;
  return !(event.nativeEvent.isComposing || event.keyCode === 229);
}

export function AnswerBox({
  value,
  onValue,
  onSubmit,
  placeholder,
  label,
  className,
}: {
  value: string;
  onValue: (value: string) => void;
  onSubmit: () => void;
  placeholder: string;
  label: string;
  className: string;
}) {
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (!isSendingEnter(event)) return;
    event.preventDefault();
    onSubmit();
  }
  return (
    <div className={className}>
      <input
        className="input"
        value={value}
        onChange={(e) => onValue(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder={placeholder}
        aria-label={label}
        autoComplete="off"
        autoCorrect="off"
        spellCheck={false}
        // biome-ignore lint/a11y/noAutofocus: the game has just started; typing is the only thing to do
        autoFocus
      />
      <button type="button" className="btn btn-primary" onClick={onSubmit}>
        제출
      </button>
    </div>
  );
}
