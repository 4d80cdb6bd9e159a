import type { AllCheckpoint } from '@tailsync/event-store';

/** `waitFor` gave up: the projection did not reach the checkpoint in time. */
export class ProjectionTimeoutError extends Error {
  constructor(
    readonly projection: string,
    readonly target: AllCheckpoint,
    readonly reached: AllCheckpoint | null,
    readonly timeoutMs: number,
    readonly lastError?: unknown,
  ) {
    super(
      `Projection '${projection}' did not reach checkpoint ${target.value} within ${timeoutMs} ms (at ${reached?.value ?? 'origin'})` +
        (lastError ? `; last error: ${(lastError as Error).message ?? String(lastError)}` : ''),
    );
    this.name = 'ProjectionTimeoutError';
  }
}

/** `waitFor` was pending when the projection was stopped. */
export class ProjectionStoppedError extends Error {
  constructor(projection: string) {
    super(`Projection '${projection}' was stopped`);
    this.name = 'ProjectionStoppedError';
  }
}
