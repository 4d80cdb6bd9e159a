import { Logger } from '@nestjs/common';
import { readFile } from 'node:fs/promises';
import { settingFileText } from './setting-files';

/** How often a secret's file is read again: as often as the gRPC TLS files are. */
export const SECRET_FILE_REFRESH_MS = 5_000;

export interface RereadSecretOptions<T> {
  /** The setting (`SERVICE_VERIFY_KEY`), which the log lines name. */
  setting: string;
  /** Its text as the configuration read it at start. */
  text: string;
  /** The file it came from (`<NAME>_FILE`); without one the value never changes. */
  file: string | undefined;
  /** The value of a text; throws, with a message that does not quote the text, when it cannot be used. */
  parse: (text: string) => T;
  /** What the log says of a value put in use (its key ids, say): never the secret itself. */
  describe: (value: T) => Record<string, unknown>;
  refreshMs?: number;
}

/**
 * A secret setting read again from its file when the file changes, so a key is rotated without a
 * restart (a Kubernetes Secret updated in place, a compose secret file rewritten). A text that
 * cannot be used (a half-written file) leaves the value in use as it was, and the log says why.
 */
export class RereadSecret<T> {
  private value: T;
  private text: string;
  private problem: string | undefined;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: RereadSecretOptions<T>,
    private readonly logger = new Logger('secrets'),
  ) {
    this.text = options.text;
    this.value = options.parse(options.text);
    logger.log({ msg: `${options.setting} in use`, ...options.describe(this.value) });
    const { file } = options;
    if (file === undefined) return;
    this.timer = setInterval(() => void this.readAgain(file), options.refreshMs ?? SECRET_FILE_REFRESH_MS);
    this.timer.unref();
  }

  get current(): T {
    return this.value;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async readAgain(file: string): Promise<void> {
    const { setting, parse, describe } = this.options;
    let text: string;
    let value: T;
    try {
      text = settingFileText(await readFile(file, 'utf8'));
      if (text === this.text) return;
      value = parse(text);
    } catch (error) {
      const problem = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      // Once per problem, not every few seconds; the path and the reason, never the content.
      if (problem !== this.problem) this.logger.warn({ msg: `${setting} read again from ${file} cannot be used: the one in use stays`, reason: problem });
      this.problem = problem;
      return;
    }
    this.text = text;
    this.value = value;
    this.problem = undefined;
    this.logger.log({ msg: `${setting} read again from ${file}: in use`, ...describe(value) });
  }
}
