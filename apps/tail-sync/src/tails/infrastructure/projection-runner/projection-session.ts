import type { AllCheckpoint } from '@tailsync/event-store';
import type { ClientBase } from 'pg';

/**
 * How a runner holds the right to apply batches and reads its checkpoint: a transaction per batch
 * under a lock any copy may take (`BatchTransactions`, the read model), or a session lock one copy
 * holds for as long as it lives (`LeaderSession`, the relay).
 */
export interface ProjectionSession<Client extends ClientBase> {
  /** false while another copy holds the projection (this copy's runs then do nothing). */
  readonly held: boolean;
  /** A connection for a run, or null when another copy holds the projection. */
  open(): Promise<Client | null>;
  /** Starts a batch: the checkpoint stored when it starts. */
  begin(client: Client): Promise<AllCheckpoint | null>;
  /** Ends a batch whose writes stored `reached`. */
  commit(client: Client, reached: AllCheckpoint | null): Promise<void>;
  /** Ends a run that went well. */
  close(client: Client): Promise<void>;
  /** Ends a run that failed: the open batch is rolled back, the connection dropped. */
  abandon(client: Client): Promise<void>;
}
