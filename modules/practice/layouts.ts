/**
 * The layouts a player practises on (README "Layouts"): 두벌식, 세벌식 390, 세벌식 최종. Shared with the web.
 */
import { DUBEOLSIK } from "./dubeolsik";
import { type KeyboardLayout, LAYOUTS, type Layout } from "./key-caps";
import { SEBEOLSIK_390 } from "./sebeolsik-390";
import { SEBEOLSIK_FINAL } from "./sebeolsik-final";

export { isLayout, LAYOUT_NAMES, LAYOUTS, type Layout } from "./key-caps";

const BY_ID: Record<Layout, KeyboardLayout> = {
  dubeolsik: DUBEOLSIK,
  "sebeolsik-390": SEBEOLSIK_390,
  "sebeolsik-final": SEBEOLSIK_FINAL,
};

export const layoutOf = (id: Layout): KeyboardLayout => BY_ID[id];

/** Every unit of every layout (what a summary may name; `api.ts` checks it against the summary's own layout). */
export const ALL_KEY_UNITS: readonly string[] = [...new Set(LAYOUTS.flatMap((id) => BY_ID[id].units))];
