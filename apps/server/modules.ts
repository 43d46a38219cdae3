import { accountsModule } from "../../modules/accounts";
import { adminModule } from "../../modules/admin";
import { boardModule } from "../../modules/board";
import { dailyModule } from "../../modules/daily";
import { duelModule } from "../../modules/duel";
import { createGamesModule } from "../../modules/games";
import { guildsModule } from "../../modules/guilds";
import type { AppModule } from "../../modules/kernel/define-module";
import { moderationModule } from "../../modules/moderation";
import { practiceModule } from "../../modules/practice";
import { profileModule } from "../../modules/profile";
import { rankingsModule } from "../../modules/rankings";
import { roomsModule } from "../../modules/rooms";
import { systemModule } from "../../modules/system";

/**
 * THE list of modules, in any order (dependencies are sorted at boot). Explicit imports keep route types and
 * make a missing module a compile error rather than a silent folder-scan miss.
 */
export const modules: readonly AppModule[] = [
  accountsModule,
  systemModule,
  // The games module serves the records route (GET /api/games/results/user/{userId}) since rooms moved onto it.
  createGamesModule({ serveRoutes: true }),
  roomsModule,
  boardModule,
  guildsModule,
  duelModule,
  adminModule,
  rankingsModule,
  profileModule,
  dailyModule,
  practiceModule,
  moderationModule,
];
