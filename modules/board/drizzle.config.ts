import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./modules/board/schema.ts",
  out: "./modules/board/migrations",
});
