export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(scope: string): Logger;
}

/** One-line JSON logs on stderr. Callers must never pass secrets (passwords, tokens, hashes). */
export function createLogger(level: LogLevel = "info", scope = "app"): Logger {
  const write = (at: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (order[at] < order[level]) return;
    const line = JSON.stringify({ t: new Date().toISOString(), level: at, scope, msg: message, ...fields });
    process.stderr.write(`${line}\n`);
  };
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
    child: (child) => createLogger(level, `${scope}.${child}`),
  };
}
