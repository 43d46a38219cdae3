import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./modules/games/schema.pg.ts",
  out: "./modules/games/migrations-pg",
});
