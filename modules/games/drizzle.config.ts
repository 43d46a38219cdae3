import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./modules/games/schema.ts",
  out: "./modules/games/migrations",
});
