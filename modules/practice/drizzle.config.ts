import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./modules/practice/schema.ts",
  out: "./modules/practice/migrations",
});
