import { pgKit } from "../../db/schema-kit";
import { defineAccountsTables } from "./tables";

// PostgreSQL's tables, for drizzle-kit (drizzle.pg.config.ts) and the stores (see tables.ts).
export const { refreshTokens, loginHistory, accountChanges, rewardGrants, passwordResetTokens } =
  pgKit.once(defineAccountsTables);
