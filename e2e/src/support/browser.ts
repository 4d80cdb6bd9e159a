import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Debian's Chromium (tools/test/chromium.ts installs it), headless; as root it needs --no-sandbox. */
export function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH;
  if (!executablePath) throw new Error('CHROMIUM_PATH is not set: run the suite with `npm test`');
  return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}

/** Accessibility violations axe-core rates serious or critical on the page as it is now. */
export async function seriousViolations(page: Page): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact as string, nodes: v.nodes.map((n) => n.target.join(' ')) }));
}

/** Keeps a picture of a console page in docs/console/ (the README shows them). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = join(__dirname, '..', '..', '..', 'docs', 'console');
  mkdirSync(dir, { recursive: true });
  // The whole page down to a README-sized height: long lists (every domain of the run) stop there.
  const height = Math.min(1400, (await page.evaluate('document.documentElement.scrollHeight')) as number);
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true, clip: { x: 0, y: 0, width: page.viewportSize()?.width ?? 1280, height } });
}

/** Waits until the locator's text satisfies `expected` (exact text, or a pattern), failing after the time-out. */
export async function textBecomes(locator: Locator, expected: string | RegExp, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: string | null = null;
  for (;;) {
    last = await locator.first().textContent({ timeout: timeoutMs }).catch(() => null);
    if (last !== null && (typeof expected === 'string' ? last === expected : expected.test(last))) return;
    if (Date.now() > deadline) throw new Error(`text was ${JSON.stringify(last)}, expected ${String(expected)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the locator matches `count` elements. */
export async function countBecomes(locator: Locator, count: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await locator.count()) !== count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} elements, found ${await locator.count()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
