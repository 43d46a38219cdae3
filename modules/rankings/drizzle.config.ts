import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./modules/rankings/schema.ts",
  out: "./modules/rankings/migrations",
});
