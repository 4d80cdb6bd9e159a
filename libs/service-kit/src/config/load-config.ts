import { readFileSync } from 'node:fs';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync, ValidationError } from 'class-validator';

export class ConfigError extends Error {}

/**
 * Reads one app's settings from the environment into a typed class and validates them.
 * A wrong or missing setting stops start-up with a message naming each bad variable.
 */
export function loadConfig<T extends object>(schema: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const raw = withFileValues(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string>, knownSettings(schema));
  const config = plainToInstance(schema, raw, { enableImplicitConversion: true, exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: false, forbidUnknownValues: false });
  if (errors.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${errors.map(describe).join('\n')}`);
  }
  return config;
}

function describe(error: ValidationError): string {
  // Messages carry the rule, never the value: a secret must not reach a log line.
  const rules = Object.values(error.constraints ?? {}).join('; ');
  return `  ${error.property}: ${rules}`;
}

/** The settings a config class knows: every validated or defaulted property. */
export function knownSettings(schema: new () => object): Set<string> {
  const validated = getMetadataStorage()
    .getTargetValidationMetadatas(schema, '', true, false)
    .map((m) => m.propertyName);
  return new Set([...validated, ...Object.keys(new schema())]);
}

/**
 * `X_FILE=<path>` stands for `X=<the file's content>` (Docker and Kubernetes secrets) for a setting
 * `X` of this process, unless `X` itself is set. A file that cannot be read stops start-up naming
 * the setting, never the content.
 */
function withFileValues(env: Record<string, string>, settings: Set<string>): Record<string, string> {
  const values = { ...env };
  for (const [key, path] of Object.entries(env)) {
    if (!key.endsWith('_FILE')) continue;
    const name = key.slice(0, -'_FILE'.length);
    if (!settings.has(name) || values[name] !== undefined) continue;
    try {
      values[name] = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      throw new ConfigError(`Invalid configuration:\n  ${key}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return values;
}
