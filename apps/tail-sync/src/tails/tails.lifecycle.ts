import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PostgresEventStore, type EventStore } from '@tailsync/event-store';
import { PG_POOL, runMigrations, type MigrationSet, type Sender } from '@tailsync/service-kit';
import type { Pool } from 'pg';
import type { ReservationStore } from './application/reservation-store';
import { EVENT_STORE, RESERVATION_STORE } from './application/tail-ports';
import { checkCheckpointsWithinLog } from './infrastructure/checkpoints-within-log';
import { PostgresEventLogBinding } from './infrastructure/event-log-binding';
import { readModelTables } from './infrastructure/read-model/read-model.tables';
import { TailsProjection } from './infrastructure/read-model/tails.projection';
import { RELAY_PRODUCER } from './infrastructure/relay/relay-producer';
import { TailEventsRelay } from './infrastructure/relay/tail-events.relay';
import { StreamReservations } from './infrastructure/reservations/stream-reservations';

/** The migration sets run at start, before anything reads or writes the database (`tailSyncMigrations`). */
export const STARTUP_MIGRATIONS = Symbol('STARTUP_MIGRATIONS');

/** Migrates the database, then starts the background parts (projection catch-up, relay to Kafka); stops them first. */
@Injectable()
export class TailsLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(STARTUP_MIGRATIONS) private readonly migrations: MigrationSet[],
    private readonly projection: TailsProjection,
    private readonly relay: TailEventsRelay,
    @Inject(RELAY_PRODUCER) private readonly producer: Sender,
    @Inject(RESERVATION_STORE) private readonly reservations: ReservationStore,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await runMigrations(this.pool, this.migrations, { logger: new Logger('Migrations') });
    const kind = this.eventStore instanceof PostgresEventStore ? 'postgres' : 'esdb';
    const binding = new PostgresEventLogBinding(this.pool, readModelTables());
    await checkCheckpointsWithinLog(this.eventStore, binding, kind, [
      { reader: 'projection', checkpoint: await this.projection.storedCheckpoint() },
      { reader: 'relay', checkpoint: await this.relay.storedCheckpoint() },
    ]);
    if (this.reservations instanceof StreamReservations) await this.reservations.alignClock();
    await this.producer.connect();
    this.projection.start();
    this.relay.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.relay.stop();
    await this.projection.stop();
    await this.producer.disconnect();
    await this.eventStore.close();
  }
}
