import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./modules/duel/schema.ts",
  out: "./modules/duel/migrations",
});
