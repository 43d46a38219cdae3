import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./modules/accounts/schema.ts",
  out: "./modules/accounts/migrations",
});
