import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./modules/board/schema.pg.ts",
  out: "./modules/board/migrations-pg",
});
