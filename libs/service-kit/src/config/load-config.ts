import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';

export class ConfigError extends Error {}

/**
 * Reads one app's settings from the environment into a typed class and validates them.
 * A wrong or missing setting stops start-up with a message naming each bad variable.
 */
export function loadConfig<T extends object>(schema: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
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
