import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./modules/duel/schema.pg.ts",
  out: "./modules/duel/migrations-pg",
});
