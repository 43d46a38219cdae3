import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./modules/rankings/schema.pg.ts",
  out: "./modules/rankings/migrations-pg",
});
