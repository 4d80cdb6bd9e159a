/** How long each phase of a run took, for the closing summary that shows what slowed a run. */
export class PhaseTimes {
  private readonly started = Date.now();
  private readonly took = new Map<string, number>();

  async time<T>(phase: string, work: () => Promise<T>): Promise<T> {
    const t0 = Date.now();
    try {
      return await work();
    } finally {
      this.took.set(phase, (Date.now() - t0) / 1000);
    }
  }

  seconds(phase: string): number {
    return this.took.get(phase) ?? 0;
  }

  sinceStart(): number {
    return (Date.now() - this.started) / 1000;
  }

  /** One line per phase, in the order they ended. */
  summary(): string[] {
    return [...this.took].map(([phase, seconds]) => `phase ${phase}: ${seconds.toFixed(1)} s`);
  }
}
