import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';

export interface ConsoleAsset {
  body: Buffer;
  contentType: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** Served to anyone: what the sign-in page needs. Everything else only to a signed-in console. */
export const PUBLIC_ASSETS = new Set(['sign-in.js', 'console.css']);

/** The chart library (uPlot, MIT), served from the installed npm package: nothing comes from the internet. */
const VENDOR: Record<string, string> = {
  'vendor/uPlot.iife.min.js': 'uplot/dist/uPlot.iife.min.js',
  'vendor/uPlot.min.css': 'uplot/dist/uPlot.min.css',
};

/** Every file of the console, read once at start: `pages/service-accounts.js` → its bytes. */
export function loadConsoleAssets(dir = join(__dirname, '..', 'assets')): Map<string, ConsoleAsset> {
  const assets = new Map<string, ConsoleAsset>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const type = TYPES[extname(entry.name)];
    if (!entry.isFile() || !type) continue;
    const path = join(entry.parentPath, entry.name);
    assets.set(path.slice(dir.length + 1), { body: readFileSync(path), contentType: type });
  }
  for (const [name, file] of Object.entries(VENDOR)) assets.set(name, { body: readFileSync(require.resolve(file)), contentType: TYPES[extname(name)] });
  return assets;
}
