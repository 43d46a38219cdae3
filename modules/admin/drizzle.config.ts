import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./modules/admin/schema.ts",
  out: "./modules/admin/migrations",
});
