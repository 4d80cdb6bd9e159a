import { IsIn, IsInt, IsString, Max, Min, ValidateIf } from 'class-validator';
import { CommonConfig } from '@tailsync/service-kit';

export class TailSyncConfig extends CommonConfig {
  /** Port of this process's health and metrics endpoints. */
  @IsInt()
  @Min(1)
  @Max(65535)
  TAIL_SYNC_HTTP_PORT: number = 3001;

  @IsIn(['postgres', 'esdb'])
  EVENT_STORE: string = 'postgres';

  /** EventStoreDB connection string; used when EVENT_STORE=esdb. */
  @ValidateIf((c: TailSyncConfig) => c.EVENT_STORE === 'esdb')
  @IsString({ message: 'EVENTSTORE_CONNECTION_STRING is required when EVENT_STORE=esdb' })
  EVENTSTORE_CONNECTION_STRING?: string;
}
