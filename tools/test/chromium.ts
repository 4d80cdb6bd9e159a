import { existsSync } from 'node:fs';
import { aptInstall } from '../docker/shell';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/**
 * Debian's Chromium, which the console's browser tests drive with playwright-core (Playwright's
 * own browser download cannot reach its CDN from our machines). `CHROMIUM_PATH` names another;
 * as root on Debian it is installed when missing; otherwise this throws and the suite fails.
 */
export function ensureChromium(log: (line: string) => void): string {
  const given = process.env.CHROMIUM_PATH;
  if (given) return given;
  const found = CANDIDATES.find((path) => existsSync(path));
  if (found) return found;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    throw new Error('Chromium is missing: install Debian\'s `chromium` package (or set CHROMIUM_PATH) for the console\'s browser tests');
  }
  const t0 = Date.now();
  aptInstall(['chromium']);
  log(`chromium installed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return CANDIDATES[0];
}
