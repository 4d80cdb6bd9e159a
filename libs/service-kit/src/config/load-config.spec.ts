import 'reflect-metadata';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IsString } from 'class-validator';
import { ConfigError, loadConfig } from './load-config';

class SecretConfig {
  @IsString()
  API_SECRET: string;
}

describe('loadConfig with *_FILE settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'load-config-'));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('reads a setting from the file its _FILE names, without the trailing newline', () => {
    expect(loadConfig(SecretConfig, { API_SECRET_FILE: file('secret', 's3cr3t\n') }).API_SECRET).toBe('s3cr3t');
  });

  it('prefers the setting itself when both are given', () => {
    expect(loadConfig(SecretConfig, { API_SECRET: 'direct', API_SECRET_FILE: file('other', 'from-file') }).API_SECRET).toBe('direct');
  });

  it('ignores _FILE variables of settings it does not declare', () => {
    expect(loadConfig(SecretConfig, { API_SECRET: 'x', TF_CLI_CONFIG_FILE: join(dir, 'missing') }).API_SECRET).toBe('x');
  });

  it('refuses an unreadable file naming the variable and the path, never a value', () => {
    const load = () => loadConfig(SecretConfig, { API_SECRET_FILE: join(dir, 'absent') });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/API_SECRET_FILE: cannot read .*absent \(ENOENT\)/);
  });
});
