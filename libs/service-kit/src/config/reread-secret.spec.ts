import 'reflect-metadata';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CalledServiceConfig } from './called-service.config';
import { loadConfig } from './load-config';
import { RereadSecret } from './reread-secret';
import { settingFile } from './setting-files';

const dir = mkdtempSync(join(tmpdir(), 'reread-secret-'));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A logger that keeps its lines. */
function recordingLogger() {
  const lines: { level: string; line: Record<string, unknown> }[] = [];
  const keep = (level: string) => (line: Record<string, unknown>) => lines.push({ level, line });
  return { lines, logger: { log: keep('log'), warn: keep('warn') } as never };
}

/** A "key" is a line of digits here: enough to see what is read, and when it is refused. */
const digits = (text: string) => {
  if (!/^\d+$/.test(text)) throw new Error('KEY holds no digits');
  return Number(text);
};

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await sleep(10);
}

describe('RereadSecret: a secret file read again when it changes', () => {
  it('puts a changed file in use, and says so with what describe gives (not the text)', async () => {
    const file = join(dir, 'changing');
    writeFileSync(file, '1\n');
    const { lines, logger } = recordingLogger();
    const secret = new RereadSecret({ setting: 'KEY', text: '1', file, parse: digits, describe: (n) => ({ kid: `k${n}` }), refreshMs: 10 }, logger);
    try {
      expect(secret.current).toBe(1);
      writeFileSync(file, '2\n');
      await until(() => secret.current === 2);
      expect(secret.current).toBe(2);
      expect(lines).toEqual([
        { level: 'log', line: { msg: 'KEY in use', kid: 'k1' } },
        { level: 'log', line: { msg: `KEY read again from ${file}: in use`, kid: 'k2' } },
      ]);
    } finally {
      secret.stop();
    }
  });

  it('keeps the value in use while the file cannot be used, saying why once, then takes the next good one', async () => {
    const file = join(dir, 'broken');
    writeFileSync(file, '1');
    const { lines, logger } = recordingLogger();
    const secret = new RereadSecret({ setting: 'KEY', text: '1', file, parse: digits, describe: (n) => ({ kid: `k${n}` }), refreshMs: 10 }, logger);
    try {
      writeFileSync(file, 'half a secret');
      await sleep(200);
      expect(secret.current).toBe(1);
      writeFileSync(file, '3');
      await until(() => secret.current === 3);
      expect(secret.current).toBe(3);
      expect(lines.filter((l) => l.level === 'warn')).toEqual([
        { level: 'warn', line: { msg: `KEY read again from ${file} cannot be used: the one in use stays`, reason: 'KEY holds no digits' } },
      ]);
      expect(JSON.stringify(lines)).not.toContain('half a secret');
    } finally {
      secret.stop();
    }
  });

  it('never changes a value given in the environment, and refuses an unusable one at start', () => {
    const { logger } = recordingLogger();
    const secret = new RereadSecret({ setting: 'KEY', text: '7', file: undefined, parse: digits, describe: () => ({}) }, logger);
    expect(secret.current).toBe(7);
    secret.stop();
    expect(() => new RereadSecret({ setting: 'KEY', text: 'x', file: undefined, parse: digits, describe: () => ({}) }, logger)).toThrow('KEY holds no digits');
  });

  it('knows the file loadConfig read a setting from, and none for a setting given in the environment', () => {
    const file = join(dir, 'service_verify_key');
    writeFileSync(file, '-----BEGIN PUBLIC KEY-----\nx\n-----END PUBLIC KEY-----\n');
    const base = { DATABASE_URL: 'postgres://db/x' };
    expect(settingFile(loadConfig(CalledServiceConfig, { ...base, SERVICE_VERIFY_KEY_FILE: file }), 'SERVICE_VERIFY_KEY')).toBe(file);
    expect(settingFile(loadConfig(CalledServiceConfig, { ...base, SERVICE_VERIFY_KEY: '-----BEGIN PUBLIC KEY-----' }), 'SERVICE_VERIFY_KEY')).toBeUndefined();
  });
});
