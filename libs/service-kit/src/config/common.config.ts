import { IsIn, IsIP, IsOptional, IsString, Matches } from 'class-validator';
import type { KafkaSettings } from '../kafka/kafka-connection';
import type { ReplicationSettings } from '../kafka/topic-replication';

/** Settings every tailsync process reads; the Kafka ones are checked by kafkaConnection() and replicationSettings(), the gRPC TLS ones by grpcTlsFiles() (which takes this class's shape: grpc/ reads config/, not the other way). */
export class CommonConfig implements KafkaSettings, ReplicationSettings {
  @IsOptional() @IsString() KAFKA_BROKERS?: string;
  @IsOptional() @IsString() KAFKA_SSL?: string;
  @IsOptional() @IsString() KAFKA_SSL_CA_FILE?: string;
  @IsOptional() @IsString() KAFKA_SASL_MECHANISM?: string;
  @IsOptional() @IsString() KAFKA_SASL_USERNAME?: string;
  @IsOptional() @IsString() KAFKA_SASL_PASSWORD?: string;
  @IsOptional() @IsString() KAFKA_SASL_PASSWORD_FILE?: string;
  /** Of the topics the process creates; checked by replicationSettings(). */
  @IsOptional() @IsString() KAFKA_REPLICATION_FACTOR?: string;
  @IsOptional() @IsString() KAFKA_MIN_INSYNC_REPLICAS?: string;

  /** Mutual TLS between the gateway and the services: the CA, this process's certificate and key (PEM files). */
  @IsOptional() @IsString() GRPC_TLS_CA_FILE?: string;
  @IsOptional() @IsString() GRPC_TLS_CERT_FILE?: string;
  @IsOptional() @IsString() GRPC_TLS_KEY_FILE?: string;

  @IsString()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL: string;

  /** The password of DATABASE_URL's user when the URL leaves it out (e.g. from a secret: DATABASE_PASSWORD_FILE). */
  @IsOptional()
  @IsString()
  DATABASE_PASSWORD?: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /**
   * The address every listener of the process binds to: its HTTP port, its gRPC port and the
   * management port. `0.0.0.0` (every interface) suits a container; `127.0.0.1` keeps a host's
   * copy off the network.
   */
  @IsIP(undefined, { message: 'HOST must be an IP address to listen on (0.0.0.0: every interface, 127.0.0.1: this host only)' })
  HOST: string = '0.0.0.0';

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

/** DATABASE_URL with the password put in (encoded as a URL needs); undefined when it already has one. */
export function databaseUrlWithPassword(databaseUrl: string, password: string): string | undefined {
  const url = new URL(databaseUrl);
  if (url.password) return undefined;
  url.password = encodeURIComponent(password);
  return url.toString();
}
