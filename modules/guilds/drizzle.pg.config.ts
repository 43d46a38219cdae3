import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./modules/guilds/schema.pg.ts",
  out: "./modules/guilds/migrations-pg",
});
