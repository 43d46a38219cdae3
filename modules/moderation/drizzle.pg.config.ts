import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./modules/moderation/schema.pg.ts",
  out: "./modules/moderation/migrations-pg",
});
