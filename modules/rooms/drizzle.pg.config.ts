import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./modules/rooms/schema.pg.ts",
  out: "./modules/rooms/migrations-pg",
});
