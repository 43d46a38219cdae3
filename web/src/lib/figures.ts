/** Formatters and colour tones of typing figures, shared by the rooms, the guild game and the typing panel. */

/** Accuracy colours: good from 90 %, fair from 70 %, poor below (spec part 1 §9). */
export function accuracyTone(accuracy: number): "good" | "fair" | "poor" {
  if (accuracy >= 90) return "good";
  if (accuracy >= 70) return "fair";
  return "poor";
}

/** "96.5%" without trailing zeros (the server sends 2 decimals). */
export const percent = (value: number) => `${Math.round(value * 10) / 10}%`;
