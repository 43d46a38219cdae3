import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./modules/daily/schema.ts",
  out: "./modules/daily/migrations",
});
