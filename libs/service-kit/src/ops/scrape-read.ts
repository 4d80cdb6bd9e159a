import { withTimeout } from './readiness-check';

/**
 * How long a scrape waits for a value read from a server (Kafka, PostgreSQL): less than any scrape
 * time-out (Prometheus keeps it below the scrape interval). A scrape that waited on a server cut
 * off the network failed, and a copy that was up and serving read as down (`up` 0).
 */
export const SCRAPE_READ_TIMEOUT_MS = 1_000;

/**
 * A value read from a server when /metrics is scraped. A read still waiting serves the scrapes that
 * come meanwhile (one more each would pile up on the server's connections), a finished one for
 * `freshForMs`; a read that fails, or does not answer in time, leaves its series out (`none`).
 * The time-out counts from the read's start, so a hung read costs one scrape its wait and the
 * scrapes after it none: a copy cut off its server answers them at once, even on a starved CPU.
 */
export class ScrapeRead<T> {
  private reading?: { at: number; value: Promise<T>; done: boolean };

  constructor(
    private readonly what: string,
    private readonly read: () => Promise<T>,
    private readonly none: T,
    private readonly freshForMs = 0,
  ) {}

  current(): Promise<T> {
    let reading = this.reading;
    if (!reading || (reading.done && Date.now() - reading.at >= this.freshForMs)) {
      const next = { at: Date.now(), value: this.read().catch(() => this.none), done: false };
      void next.value.finally(() => (next.done = true));
      this.reading = reading = next;
    }
    // A finished read answers as it is (its failure is already `none`): no time-out to arm.
    if (reading.done) return reading.value;
    const left = reading.at + SCRAPE_READ_TIMEOUT_MS - Date.now();
    if (left <= 0) return Promise.resolve(this.none);
    return withTimeout(reading.value, left, this.what).catch(() => this.none);
  }
}
