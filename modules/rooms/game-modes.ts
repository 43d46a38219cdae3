import type { AnyGameMode, GameModeId } from "../kernel/game-mode";
import { sentenceRace } from "./sentence-race";

/** Every game mode by id; `satisfies` makes a mode id without its implementation a type error. */
export const gameModes = {
  sentence_race: sentenceRace,
} satisfies Record<GameModeId, AnyGameMode>;
