import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
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
  @IsOptional()
  @IsString()
  EVENTSTORE_CONNECTION_STRING?: string;
}
