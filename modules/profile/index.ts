import { defineModule } from "../kernel/define-module";

/**
 * The profile (spec part 2 §2 "Profile"): no tables and no routes of its own. Its two calls are served by the
 * modules that own the data — `GET /api/users/me` (accounts: level, experience, currencies, medals, typing stats)
 * and `GET /api/games/results/user/{userId}?limit=200` (games: the records of every mode) — and the statistics
 * are derived from the records by the client (spec §3 "Profile stats"). This module states those rules (README)
 * and tests them together (`profile.integration.test.ts`).
 */
export const profileModule = defineModule({
  name: "profile",
  dependsOn: ["accounts", "games"],
});
