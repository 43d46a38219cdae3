import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./modules/admin/schema.pg.ts",
  out: "./modules/admin/migrations-pg",
});
