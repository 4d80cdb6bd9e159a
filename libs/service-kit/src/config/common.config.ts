import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import type { KafkaSettings } from '../kafka/kafka-connection';

/** Settings every tailsync process reads; the Kafka ones are checked by kafkaConnection(). */
export class CommonConfig implements KafkaSettings {
  @IsOptional() @IsString() KAFKA_BROKERS?: string;
  @IsOptional() @IsString() KAFKA_SSL?: string;
  @IsOptional() @IsString() KAFKA_SSL_CA_FILE?: string;
  @IsOptional() @IsString() KAFKA_SASL_MECHANISM?: string;
  @IsOptional() @IsString() KAFKA_SASL_USERNAME?: string;
  @IsOptional() @IsString() KAFKA_SASL_PASSWORD?: string;
  @IsOptional() @IsString() KAFKA_SASL_PASSWORD_FILE?: string;

  @IsString()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /** Names this copy in logs and Kafka client ids; several copies may run at once. */
  @IsOptional()
  @IsString()
  INSTANCE_ID?: string;

  /**
   * The standard OpenTelemetry variables compose passes on; the SDK reads them (and the other
   * `OTEL_*` ones) itself when tracing starts (observability/tracing.ts), so they are only named here.
   */
  @IsOptional() @IsString() OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  @IsOptional() @IsString() OTEL_TRACES_SAMPLER?: string;
}

