import { sqliteKit } from "../../db/schema-kit";
import { defineAccountsTables } from "./tables";

// SQLite's tables, for drizzle-kit (drizzle.config.ts) and the stores (see tables.ts).
export const { refreshTokens, loginHistory, accountChanges, rewardGrants, passwordResetTokens } =
  sqliteKit.once(defineAccountsTables);
