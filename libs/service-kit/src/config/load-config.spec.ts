import 'reflect-metadata';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommonConfig } from './common.config';
import { ConfigError, loadConfig } from './load-config';

const dir = mkdtempSync(join(tmpdir(), 'load-config-'));
const file = (name: string, content: string) => {
  writeFileSync(join(dir, name), content);
  return join(dir, name);
};

describe('loadConfig: settings from files and the database password', () => {
  it('reads any setting from the file <NAME>_FILE names, without its final newline', () => {
    const config = loadConfig(CommonConfig, { DATABASE_URL_FILE: file('url', 'postgres://u:p@db:5432/x\n'), INSTANCE_ID_FILE: file('id', 'copy-1\r\n') });
    expect(config).toMatchObject({ DATABASE_URL: 'postgres://u:p@db:5432/x', INSTANCE_ID: 'copy-1' });
  });

  it('refuses a setting given both ways, and names an unreadable file by path, never content', () => {
    expect(() => loadConfig(CommonConfig, { DATABASE_URL: 'postgres://db/x', DATABASE_URL_FILE: file('url2', 'postgres://db/y') })).toThrow(
      /DATABASE_URL: set DATABASE_URL or DATABASE_URL_FILE, not both/,
    );
    expect(() => loadConfig(CommonConfig, { DATABASE_URL: 'postgres://db/x', DATABASE_PASSWORD_FILE: join(dir, 'missing') })).toThrow(
      `DATABASE_PASSWORD_FILE: cannot read ${join(dir, 'missing')} (ENOENT)`,
    );
  });

  it('puts DATABASE_PASSWORD into a URL without one, encoded, and refuses a second password', () => {
    const config = loadConfig(CommonConfig, { DATABASE_URL: 'postgres://tailsync@db:5432/x', DATABASE_PASSWORD_FILE: file('pw', 'p@ss w/rd:%\n') });
    expect(config.DATABASE_URL).toBe('postgres://tailsync:p%40ss%20w%2Frd%3A%25@db:5432/x');
    expect(decodeURIComponent(new URL(config.DATABASE_URL).password)).toBe('p@ss w/rd:%');
    expect(() => loadConfig(CommonConfig, { DATABASE_URL: 'postgres://u:one@db/x', DATABASE_PASSWORD: 'two' })).toThrow(/has a password already/);
  });

  it('ignores _FILE variables of settings it does not declare', () => {
    const config = loadConfig(CommonConfig, { DATABASE_URL: 'postgres://db/x', TF_CLI_CONFIG_FILE: join(dir, 'missing') });
    expect(config.DATABASE_URL).toBe('postgres://db/x');
  });

  it('refuses an unreadable file with a configuration error', () => {
    expect(() => loadConfig(CommonConfig, { DATABASE_URL_FILE: join(dir, 'absent') })).toThrow(ConfigError);
  });
});
