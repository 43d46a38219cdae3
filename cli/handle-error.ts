import { CommanderError } from "commander";
import { isAppError } from "../modules/kernel/errors";

/** The one place CLI failures become a message and an exit code: 1 for refused operations, 2 for bad usage. */
export function handleCliError(error: unknown): never {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  if (isAppError(error)) {
    console.error(`오류: ${error.detail}`);
    process.exit(error.status >= 500 ? 1 : error.status === 422 || error.status === 400 ? 2 : 1);
  }
  console.error(`오류: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
