import { readFileSync } from 'node:fs';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { CommonConfig, databaseUrlWithPassword } from './common.config';
import { ConfigError } from '../config-error';
import { knownSettings } from './known-settings';
import { recordSettingFiles, settingFileText } from './setting-files';

export { ConfigError };

/**
 * Reads one app's settings from the environment into a typed class and validates them.
 * Any setting may instead come from a file `<NAME>_FILE` names (Docker and Compose secrets).
 * A wrong or missing setting stops start-up with a message naming each bad variable.
 */
export function loadConfig<T extends object>(schema: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const { resolved, files } = withSettingsFromFiles(schema, env);
  const raw = Object.fromEntries(Object.entries(resolved).filter(([, v]) => v !== undefined && v !== ''));
  const config = plainToInstance(schema, raw, { enableImplicitConversion: true, exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: false, forbidUnknownValues: false });
  if (errors.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${errors.map(describe).join('\n')}`);
  }
  if (config instanceof CommonConfig && config.DATABASE_PASSWORD) {
    const url = databaseUrlWithPassword(config.DATABASE_URL, config.DATABASE_PASSWORD);
    if (url === undefined) throw new ConfigError('Invalid configuration:\n  DATABASE_URL: has a password already; give it there or in DATABASE_PASSWORD, not both');
    config.DATABASE_URL = url;
  }
  recordSettingFiles(config, files);
  return config;
}

/**
 * The environment with each known setting's `<NAME>_FILE` read into `<NAME>` (one final newline
 * dropped), and the file each setting was read from.
 */
function withSettingsFromFiles(schema: new () => object, env: NodeJS.ProcessEnv): { resolved: NodeJS.ProcessEnv; files: Map<string, string> } {
  const resolved = { ...env };
  const files = new Map<string, string>();
  for (const name of knownSettings(schema)) {
    const file = env[`${name}_FILE`];
    if (!file) continue;
    if (env[name]) throw new ConfigError(`Invalid configuration:\n  ${name}: set ${name} or ${name}_FILE, not both`);
    try {
      resolved[name] = settingFileText(readFileSync(file, 'utf8'));
    } catch (error) {
      // The path and the reason, never the content: it is a secret.
      throw new ConfigError(`Invalid configuration:\n  ${name}_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    delete resolved[`${name}_FILE`];
    files.set(name, file);
  }
  return { resolved, files };
}

function describe(error: ValidationError): string {
  // Messages carry the rule, never the value: a secret must not reach a log line.
  const rules = Object.values(error.constraints ?? {}).join('; ');
  return `  ${error.property}: ${rules}`;
}
