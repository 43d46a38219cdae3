import type { AnyGameMode, GameModeId } from "../kernel/game-mode";
import { sentenceRace } from "./sentence-race";

/** The rooms' game modes by id (every mode of the product: `apps/server/game-modes.ts`). */
export const gameModes = {
  sentence_race: sentenceRace,
} satisfies Pick<Record<GameModeId, AnyGameMode>, "sentence_race">;
