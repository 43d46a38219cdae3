import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./modules/daily/schema.pg.ts",
  out: "./modules/daily/migrations-pg",
});
