import { dailyMode } from "../../modules/daily";
import { duelMode } from "../../modules/duel";
import { guildGame } from "../../modules/guilds";
import type { AnyGameMode, GameModeId } from "../../modules/kernel/game-mode";
import { gameModes as roomsModes } from "../../modules/rooms";

/**
 * Every game mode of the product by id: `satisfies` makes a mode id without its implementation a type error. Each
 * module owns its modes; this list only gathers them (as `modules.ts` gathers the modules).
 */
export const gameModes = {
  ...roomsModes,
  duel: duelMode,
  guild_game: guildGame,
  daily: dailyMode,
} satisfies Record<GameModeId, AnyGameMode>;

/** Every mode id: the game directory of a server process knows these and no other (modules/kernel/module-runtime.ts). */
export const GAME_MODE_IDS = Object.keys(gameModes) as readonly (keyof typeof gameModes)[];
