import { CommanderError } from "commander";
import { isAppError } from "../modules/kernel/errors";

export const EXIT_REFUSED = 1;
export const EXIT_USAGE = 2;

// commander's own messages are English; the operator reads Korean like everywhere else in the product.
const USAGE_MESSAGES: Record<string, string> = {
  "commander.missingArgument": "필수 인자가 빠졌습니다",
  "commander.optionMissingArgument": "옵션에 값이 필요합니다",
  "commander.missingMandatoryOptionValue": "필수 옵션이 빠졌습니다",
  "commander.unknownOption": "알 수 없는 옵션입니다",
  "commander.unknownCommand": "알 수 없는 명령입니다",
  "commander.excessArguments": "인자가 너무 많습니다",
  "commander.invalidArgument": "값이 올바르지 않습니다",
  "commander.conflictingOption": "함께 쓸 수 없는 옵션입니다",
};

function usageError(error: CommanderError): never {
  // Help asked for (`--help`, `help`, a version) is a success; a group called without a sub-command printed its help
  // as a usage error (commander gives that one a non-zero exitCode).
  const asked = error.code === "commander.help" && error.exitCode === 0;
  if (asked || error.code === "commander.helpDisplayed" || error.code === "commander.version") process.exit(0);
  if (error.code !== "commander.help") {
    const subject = /'([^']+)'/.exec(error.message)?.[1];
    const text = USAGE_MESSAGES[error.code] ?? error.message.replace(/^error:\s*/, "");
    console.error(`오류: ${text}${subject ? `: ${subject}` : ""}`);
    console.error("(--help로 사용법을 볼 수 있습니다)");
  }
  process.exit(EXIT_USAGE);
}

/**
 * The one place CLI failures become a message and an exit code: 2 for bad usage or input (400, 422, commander
 * errors), 1 for refused operations (unknown user, conflicts) and unexpected failures.
 */
export function handleCliError(error: unknown): never {
  if (error instanceof CommanderError) usageError(error);
  if (isAppError(error)) {
    console.error(`오류: ${error.detail}`);
    process.exit(error.status === 422 || error.status === 400 ? EXIT_USAGE : EXIT_REFUSED);
  }
  console.error(`오류: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(EXIT_REFUSED);
}
