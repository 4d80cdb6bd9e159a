import { ScrapeRead, SCRAPE_READ_TIMEOUT_MS } from './scrape-read';

describe('a value read from a server at scrape time', () => {
  it('answers `none` within the scrape read time-out when the server does not answer, and reads once while that read waits', async () => {
    let reads = 0;
    const hung = new ScrapeRead('a hung read', () => (reads++, new Promise<number>(() => undefined)), -1);
    const t0 = Date.now();
    await expect(hung.current()).resolves.toBe(-1);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(SCRAPE_READ_TIMEOUT_MS - 50);
    expect(Date.now() - t0).toBeLessThan(SCRAPE_READ_TIMEOUT_MS + 1_000);
    await expect(hung.current()).resolves.toBe(-1);
    expect(reads).toBe(1);
  });

  it('answers at once the scrapes that come after a read ran out of time and still waits', async () => {
    const hung = new ScrapeRead('a hung read', () => new Promise<number>(() => undefined), -1);
    await expect(hung.current()).resolves.toBe(-1);
    const t0 = Date.now();
    await expect(hung.current()).resolves.toBe(-1);
    expect(Date.now() - t0).toBeLessThan(100);
  });

  it('gives a scrape that comes while a read waits only what is left of that read\'s time', async () => {
    const hung = new ScrapeRead('a hung read', () => new Promise<number>(() => undefined), -1);
    const first = hung.current();
    await new Promise((r) => setTimeout(r, SCRAPE_READ_TIMEOUT_MS / 2));
    const t0 = Date.now();
    await expect(hung.current()).resolves.toBe(-1);
    expect(Date.now() - t0).toBeLessThan(SCRAPE_READ_TIMEOUT_MS / 2 + 100);
    await first;
  });

  it('answers `none` for a failed read, and reads again at the next scrape', async () => {
    let reads = 0;
    const failing = new ScrapeRead('a failing read', () => (reads++, Promise.reject(new Error('refused'))), -1);
    await expect(failing.current()).resolves.toBe(-1);
    await expect(failing.current()).resolves.toBe(-1);
    expect(reads).toBe(2);
  });

  it('keeps a finished read for its freshness, then reads again', async () => {
    let reads = 0;
    const counted = new ScrapeRead('a counted read', async () => ++reads, -1, 200);
    expect(await counted.current()).toBe(1);
    expect(await counted.current()).toBe(1);
    await new Promise((r) => setTimeout(r, 250));
    expect(await counted.current()).toBe(2);
  });
});
