import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./modules/moderation/schema.ts",
  out: "./modules/moderation/migrations",
});
