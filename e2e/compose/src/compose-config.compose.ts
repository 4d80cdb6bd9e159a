/**
 * The compose files as Compose itself makes of them (`docker compose config`: the Docker CLI, no
 * engine), merged in the order an operator gives them: a YAML reading of an override alone took
 * `depends_on: !reset` followed by a mapping for the mapping, where Compose drops it.
 */
import { composeConfig } from '@tailsync/service-kit';

describe('docker-compose.postgres-store.yml', () => {
  const merged = composeConfig(['docker-compose.yml', 'docker-compose.postgres-store.yml']);

  it("runs tail-sync on the PostgreSQL store, waiting for Kafka's principals, its certificates and its database role, and EventStoreDB does not start", () => {
    const tailSync = merged.services['tail-sync'];
    const env = Array.isArray(tailSync.environment) ? Object.fromEntries((tailSync.environment as string[]).map((kv) => kv.split(/=(.*)/s).slice(0, 2))) : tailSync.environment ?? {};
    expect(env.EVENT_STORE).toBe('postgres');
    expect(env).not.toHaveProperty('EVENTSTORE_CONNECTION_STRING');
    expect(env).not.toHaveProperty('EVENTSTORE_CONNECTION_STRING_FILE');
    expect(tailSync.depends_on).toEqual({
      'kafka-init': expect.objectContaining({ condition: 'service_completed_successfully' }),
      'grpc-certs': expect.objectContaining({ condition: 'service_completed_successfully' }),
      'postgres-roles': expect.objectContaining({ condition: 'service_completed_successfully' }),
    });
    // Behind a profile no one enables: not among the services Compose starts.
    expect(Object.keys(merged.services).sort()).toEqual(['gateway', 'grpc-certs', 'kafka', 'kafka-init', 'postgres', 'postgres-roles', 'tail-sync', 'webhook-dispatcher']);
  });
});

describe('the EventStoreDB service, as Compose makes it', () => {
  const volumeTarget = (env: Record<string, string>) =>
    (composeConfig(['docker-compose.yml'], env).services.eventstore.volumes as unknown as { source: string; target: string }[]).map((v) => `${v.source}:${v.target}`).filter((m) => m.startsWith('eventstore-data:'));

  it("keeps the data in the named volume at the image's data directory: EventStoreDB's by default, KurrentDB's when told", () => {
    expect(volumeTarget({})).toEqual(['eventstore-data:/var/lib/eventstore']);
    expect(volumeTarget({ EVENTSTORE_IMAGE: 'docker.kurrent.io/kurrent-lts/kurrentdb:26.0', EVENTSTORE_DATA_DIR: '/var/lib/kurrentdb' })).toEqual([
      'eventstore-data:/var/lib/kurrentdb',
    ]);
  });

  it('runs with AtomPub off (nothing uses it)', () => {
    expect(composeConfig(['docker-compose.yml']).services.eventstore.environment?.EVENTSTORE_ENABLE_ATOM_PUB_OVER_HTTP).toBe('false');
  });
});

describe("docker-compose.yml's EventStoreDB: secure by default", () => {
  const merged = composeConfig(['docker-compose.yml'], { EVENTSTORE_CERTS_DIR: '/srv/eventstore-certs' });
  const mounts = (config: ReturnType<typeof composeConfig>, service: string) => ((config.services[service].volumes ?? []) as unknown as { source: string; target: string }[]).map((v) => `${v.source}:${v.target}`);

  it("runs EventStoreDB secure with the operator's certificates, and tail-sync on TLS, trusting their CA, its connection a secret", () => {
    expect(merged.services.eventstore.environment).toMatchObject({
      EVENTSTORE_INSECURE: 'false',
      EVENTSTORE_CERTIFICATE_FILE: '/etc/eventstore/certs/node.crt',
      EVENTSTORE_TRUSTED_ROOT_CERTIFICATES_PATH: '/etc/eventstore/certs/ca',
    });
    expect(mounts(merged, 'eventstore')).toContain('/srv/eventstore-certs:/etc/eventstore/certs');
    expect(mounts(merged, 'tail-sync')).toContain('/srv/eventstore-certs/ca:/etc/tailsync/eventstore-ca');
    const env = merged.services['tail-sync'].environment ?? {};
    expect(env.EVENTSTORE_CONNECTION_STRING_FILE).toBe('/run/secrets/eventstore_connection_string');
    expect(env).not.toHaveProperty('EVENTSTORE_CONNECTION_STRING');
  });

  it('leaves the event store, its connection and its CA out with the PostgreSQL store', () => {
    const postgres = composeConfig(['docker-compose.yml', 'docker-compose.postgres-store.yml'], { EVENTSTORE_CERTS_DIR: '/srv/eventstore-certs' });
    expect(postgres.services['tail-sync'].environment ?? {}).not.toHaveProperty('EVENTSTORE_CONNECTION_STRING_FILE');
    // Only its own certificate of the service network (grpc-certs).
    expect(mounts(postgres, 'tail-sync')).toEqual(['grpc-tls-tail-sync:/etc/tailsync/grpc-tls']);
    expect(JSON.stringify(postgres.services['tail-sync'].secrets)).not.toContain('eventstore_connection_string');
  });
});

describe('docker-compose.kafka-tls.yml', () => {
  const merged = composeConfig(['docker-compose.yml', 'docker-compose.kafka-tls.yml'], { KAFKA_TLS_DIR: '/srv/kafka-tls' });

  it("serves the EXTERNAL listener over TLS (SASL_SSL) with the operator's PEM keystore, the others unchanged", () => {
    const env = merged.services.kafka.environment ?? {};
    expect(env.KAFKA_LISTENER_SECURITY_PROTOCOL_MAP).toBe('CONTROLLER:SASL_PLAINTEXT,INTERNAL:SASL_PLAINTEXT,EXTERNAL:SASL_SSL');
    expect(env).toMatchObject({ KAFKA_LISTENER_NAME_EXTERNAL_SSL_KEYSTORE_TYPE: 'PEM', KAFKA_LISTENER_NAME_EXTERNAL_SSL_KEYSTORE_LOCATION: '/etc/kafka/tls/keystore.pem' });
    const mounts = (merged.services.kafka.volumes as unknown as { source: string; target: string }[]).map((v) => `${v.source}:${v.target}`);
    expect(mounts).toEqual(expect.arrayContaining(['/srv/kafka-tls:/etc/kafka/tls', 'kafka-data:/var/lib/kafka/data', expect.stringMatching(/compose\/kafka-start\.sh:\/opt\/tailsync\/kafka-start\.sh$/)]));
  });
});

describe('the `tracing` profile', () => {
  const environment = (config: ReturnType<typeof composeConfig>, service: string) => config.services[service].environment ?? {};

  it('is off by default: no Jaeger runs, and the apps have no OTLP endpoint (tracing off)', () => {
    const plain = composeConfig(['docker-compose.yml']);
    expect(Object.keys(plain.services)).not.toContain('jaeger');
    for (const app of ['gateway', 'tail-sync', 'webhook-dispatcher']) expect(environment(plain, app).OTEL_EXPORTER_OTLP_ENDPOINT).toBe('');
  });

  it("runs the official Jaeger image when enabled, and the apps export to it when told where", () => {
    const traced = composeConfig(['docker-compose.yml'], { COMPOSE_PROFILES: 'tracing', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318' });
    expect(traced.services.jaeger.image).toBe('jaegertracing/jaeger:2.13.0');
    for (const app of ['gateway', 'tail-sync', 'webhook-dispatcher']) {
      expect(environment(traced, app)).toMatchObject({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318', OTEL_TRACES_SAMPLER: 'parentbased_always_on' });
    }
  });
});

describe('docker-compose.kafka-cluster.yml', () => {
  const merged = composeConfig(['docker-compose.yml', 'docker-compose.kafka-cluster.yml']);
  const nodes = ['kafka', 'kafka-2', 'kafka-3'];
  const envOf = (service: string) => (merged.services[service].environment ?? {}) as Record<string, string>;

  it('runs three KRaft nodes of one cluster, each with its own id, storage, names and published port', () => {
    const voters = '1@kafka:9093,2@kafka-2:9093,3@kafka-3:9093';
    for (const [i, node] of nodes.entries()) {
      expect(envOf(node)).toMatchObject({ KAFKA_NODE_ID: String(i + 1), KAFKA_PROCESS_ROLES: 'broker,controller', KAFKA_CONTROLLER_QUORUM_VOTERS: voters, CLUSTER_ID: envOf('kafka').CLUSTER_ID });
      expect(envOf(node).KAFKA_ADVERTISED_LISTENERS).toBe(`INTERNAL://${node}:9092,EXTERNAL://localhost:${9094 + i}`);
      const ports = merged.services[node].ports as unknown as { published: string; target: number; host_ip: string }[];
      expect(ports).toEqual([expect.objectContaining({ host_ip: '127.0.0.1', published: String(9094 + i), target: 9094 })]);
      const volumes = (merged.services[node].volumes as unknown as { source: string; target: string }[]).filter((v) => v.target === '/var/lib/kafka/data');
      expect(volumes.map((v) => v.source)).toEqual([i === 0 ? 'kafka-data' : `${node}-data`]);
    }
  });

  it("gives tailsync's topics 3 replicas and min.insync.replicas 2, Kafka's own topics 3 replicas, and every client all three nodes", () => {
    for (const node of nodes) {
      expect(envOf(node)).toMatchObject({ KAFKA_DEFAULT_REPLICATION_FACTOR: '3', KAFKA_MIN_INSYNC_REPLICAS: '2', KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '3', KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '3' });
    }
    expect(envOf('kafka-init')).toMatchObject({ KAFKA_REPLICATION_FACTOR: '3', KAFKA_MIN_INSYNC_REPLICAS: '2' });
    expect(Object.keys(merged.services['kafka-init'].depends_on ?? {}).sort()).toEqual(nodes);
    for (const client of ['kafka-init', 'tail-sync', 'webhook-dispatcher']) expect(envOf(client).KAFKA_BROKERS).toBe('kafka:9092,kafka-2:9092,kafka-3:9092');
  });
});
