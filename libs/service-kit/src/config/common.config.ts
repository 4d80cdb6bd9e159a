import { IsIn, IsOptional, IsString, Matches } from 'class-validator';

/** Settings every tailsync process reads. */
export class CommonConfig {
  @Matches(/^[^,\s]+:\d+(,[^,\s]+:\d+)*$/, { message: 'KAFKA_BROKERS must be a comma list of host:port' })
  KAFKA_BROKERS: string = '127.0.0.1:9092';

  @IsString()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /** Names this copy in logs and Kafka client ids; several copies may run at once. */
  @IsOptional()
  @IsString()
  INSTANCE_ID?: string;
}

export const brokerList = (config: CommonConfig): string[] => config.KAFKA_BROKERS.split(',');
