import type { InputHTMLAttributes } from "react";

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value" | "className"> & {
  label: string;
  value: string;
  onValue: (value: string) => void;
};

/** A labelled text input in the app's form style; every account and admin form uses it. */
export function TextField({ label, value, onValue, ...input }: TextFieldProps) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input className="input" value={value} onChange={(e) => onValue(e.target.value)} {...input} />
    </label>
  );
}
