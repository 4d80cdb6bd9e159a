/** When the group coordinator last confirmed this copy's membership (a heartbeat it accepted, or a join). */
export class ConfirmedMembership {
  private confirmedAt = Number.NEGATIVE_INFINITY;

  confirm(now = Date.now()): void {
    this.confirmedAt = now;
  }

  /** Milliseconds since the last confirmation (Infinity before the first). */
  since(now = Date.now()): number {
    return now - this.confirmedAt;
  }
}
