import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./modules/guilds/schema.ts",
  out: "./modules/guilds/migrations",
});
