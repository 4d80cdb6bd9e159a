import { IsIn, IsOptional, IsString, Matches } from 'class-validator';

/** Settings every tailsync process reads. */
export class CommonConfig {
  @Matches(/^[^,\s]+:\d+(,[^,\s]+:\d+)*$/, { message: 'KAFKA_BROKERS must be a comma list of host:port' })
  KAFKA_BROKERS: string = '127.0.0.1:9092';

  @IsString()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL: string;

  /** The password of DATABASE_URL's user when the URL leaves it out (e.g. from a secret: DATABASE_PASSWORD_FILE). */
  @IsOptional()
  @IsString()
  DATABASE_PASSWORD?: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /** Names this copy in logs and Kafka client ids; several copies may run at once. */
  @IsOptional()
  @IsString()
  INSTANCE_ID?: string;
}

export const brokerList = (config: CommonConfig): string[] => config.KAFKA_BROKERS.split(',');

/** DATABASE_URL with the password put in (encoded as a URL needs); undefined when it already has one. */
export function databaseUrlWithPassword(databaseUrl: string, password: string): string | undefined {
  const url = new URL(databaseUrl);
  if (url.password) return undefined;
  url.password = encodeURIComponent(password);
  return url.toString();
}
