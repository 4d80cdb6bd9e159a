/** A setting that is missing or wrong: start-up stops with its message, which names the setting and never its value. */
export class ConfigError extends Error {}
