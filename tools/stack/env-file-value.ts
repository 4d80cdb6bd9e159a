/** A value as an .env line holds it: a PEM key's line breaks as `\n` inside double quotes (Compose reads them back). */
export function envFileValue(value: string): string {
  return value.includes('\n') ? `"${value.replace(/\n/g, '\\n')}"` : value;
}
