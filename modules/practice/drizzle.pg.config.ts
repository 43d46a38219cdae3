import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./modules/practice/schema.pg.ts",
  out: "./modules/practice/migrations-pg",
});
