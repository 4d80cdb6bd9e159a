import { IsIn, IsInt, IsString, Max, Min, ValidateIf } from 'class-validator';
import { CalledServiceConfig } from '@tailsync/service-kit';

export class TailSyncConfig extends CalledServiceConfig {
  /** Port of this process's health and metrics endpoints. */
  @IsInt()
  @Min(1)
  @Max(65535)
  TAIL_SYNC_HTTP_PORT: number = 3001;

  /** Port of this process's gRPC server, where the gateway's requests arrive. */
  @IsInt()
  @Min(1)
  @Max(65535)
  TAIL_SYNC_GRPC_PORT: number = 50051;

  @IsIn(['postgres', 'esdb'])
  EVENT_STORE: string = 'postgres';

  /** EventStoreDB connection string; used when EVENT_STORE=esdb. */
  @ValidateIf((c: TailSyncConfig) => c.EVENT_STORE === 'esdb')
  @IsString({ message: 'EVENTSTORE_CONNECTION_STRING is required when EVENT_STORE=esdb' })
  EVENTSTORE_CONNECTION_STRING?: string;
}
