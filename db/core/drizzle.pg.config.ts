import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./db/core/schema.pg.ts",
  out: "./db/core/migrations-pg",
});
