/**
 * At most `size` calls to the server at once; the others wait their turn in arrival order.
 * EventStoreDB serves 100 concurrent calls per connection (Kestrel's default) and makes the rest
 * wait, appends included: a bulk read of 2,000 streams started at once would hold every one.
 */
export class CallSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = Math.max(1, size);
  }

  async run<T>(call: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await call();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
