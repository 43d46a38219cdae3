import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./modules/accounts/schema.pg.ts",
  out: "./modules/accounts/migrations-pg",
});
