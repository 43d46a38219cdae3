import type { InputHTMLAttributes, TextareaHTMLAttributes } from "react";

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value" | "className"> & {
  label: string;
  value: string;
  onValue: (value: string) => void;
};

/** A labelled text input in the app's form style; every account and admin form uses it, and the guilds' forms. */
export function TextField({ label, value, onValue, ...input }: TextFieldProps) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input className="input" value={value} onChange={(e) => onValue(e.target.value)} {...input} />
    </label>
  );
}

type TextAreaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "onChange" | "value" | "className"> & {
  label: string;
  value: string;
  onValue: (value: string) => void;
};

/** A labelled multi-line input in the same style (post and recruitment contents). */
export function TextAreaField({ label, value, onValue, ...textarea }: TextAreaFieldProps) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <textarea
        className="input field-textarea"
        value={value}
        onChange={(e) => onValue(e.target.value)}
        {...textarea}
      />
    </label>
  );
}
