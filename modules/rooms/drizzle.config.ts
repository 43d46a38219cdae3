import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./modules/rooms/schema.ts",
  out: "./modules/rooms/migrations",
});
