import { defineConfig } from "drizzle-kit";

export default defineConfig({ dialect: "sqlite", schema: "./db/core/schema.ts", out: "./db/core/migrations" });
