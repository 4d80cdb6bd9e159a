/** Minimal logger, compatible with Nest's `Logger`. */
export interface ReadSideLogger {
  log?(message: string): void;
  warn(message: string): void;
  error(message: string, stack?: string): void;
}

export const consoleLogger: ReadSideLogger = {
  warn: (m) => console.warn(m),
  error: (m, s) => console.error(s ? `${m}\n${s}` : m),
};
