import { defineModule } from "../kernel/define-module";

/**
 * The profile (spec part 2 §2 "Profile"): no tables and no routes of its own. Its calls are served by the modules
 * that own the data — `GET /api/users/me` (accounts: level, experience, currencies, medals, the typing figures),
 * `GET /api/games/best/user/{userId}` (games: best speed and accuracy), `GET /api/games/results/user/{userId}`
 * (games: the records of every mode, for the record-based views) and `GET /api/duel/stats/me`. The player's figures
 * have one definition each, kept on the server (README "One definition of each figure"); this module states those
 * rules and tests them together (`profile.integration.test.ts`, `figures.integration.test.ts`).
 */
export const profileModule = defineModule({
  name: "profile",
  dependsOn: ["accounts", "games"],
});
