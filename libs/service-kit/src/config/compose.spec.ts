import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeConfig, readCompose } from './compose-check';


const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

describe('docker-compose.yml', () => {
  const compose = readCompose();

  it('runs the infrastructure and the three apps, the apps built from the one Dockerfile', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['eventstore', 'gateway', 'kafka', 'postgres', 'tail-sync', 'webhook-dispatcher']);
    for (const app of ['gateway', 'tail-sync', 'webhook-dispatcher']) {
      expect(compose.services[app].build).toEqual({ context: '.', args: { APP: app, NODE_IMAGE: '${NODE_IMAGE:-node:20.20-bookworm-slim}' } });
      expect(existsSync(join(REPO_ROOT, 'apps', app, 'src', 'main.ts'))).toBe(true);
    }
    expect(existsSync(join(REPO_ROOT, 'Dockerfile'))).toBe(true);
  });

  it('names its images in settings whose defaults are the official images', () => {
    const image = (service: string) => /^\$\{(\w+):-([^}]+)\}$/.exec(compose.services[service].image ?? '')?.slice(1);
    expect(image('eventstore')).toEqual(['EVENTSTORE_IMAGE', 'eventstore/eventstore:24.10']);
    expect(image('kafka')).toEqual(['KAFKA_IMAGE', 'apache/kafka:3.9.1']);
    expect(image('postgres')).toEqual(['POSTGRES_IMAGE', 'postgres:18']);
    expect(readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8')).toMatch(/^ARG NODE_IMAGE=node:20\.20-bookworm-slim$/m);
  });

  it('restarts every service by itself and keeps the stores\' data in named volumes', () => {
    for (const [name, service] of Object.entries(compose.services)) expect({ name, restart: service.restart }).toEqual({ name, restart: 'unless-stopped' });
    expect(compose.services.kafka.volumes).toEqual(['kafka-data:/var/lib/kafka/data']);
    expect(compose.services.kafka.environment?.KAFKA_LOG_DIRS).toBe('/var/lib/kafka/data');
    expect(compose.services.postgres.volumes).toEqual(['postgres-data:/var/lib/postgresql']);
    expect(compose.services.eventstore.volumes).toEqual(['eventstore-data:${EVENTSTORE_DATA_DIR:-/var/lib/eventstore}']);
  });

  it('gives every service a health check and makes every dependency wait for health', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      expect({ name, healthcheck: Boolean(service.healthcheck?.test) }).toEqual({ name, healthcheck: true });
      const deps = service.depends_on ?? {};
      expect(Array.isArray(deps)).toBe(false);
      for (const [dep, { condition }] of Object.entries(deps)) {
        expect(Object.keys(compose.services)).toContain(dep);
        expect(condition).toBe('service_healthy');
      }
    }
  });
});

describe('docker-compose.postgres-store.yml', () => {
  // As Compose merges it over docker-compose.yml (`docker compose config`): a YAML reading of the
  // override alone took `depends_on: !reset` followed by a mapping for the mapping; Compose drops it.
  const merged = composeConfig(['docker-compose.yml', 'docker-compose.postgres-store.yml']);

  it('runs tail-sync on the PostgreSQL store, waiting for Kafka and PostgreSQL, and EventStoreDB does not start', () => {
    const tailSync = merged.services['tail-sync'];
    const env = Array.isArray(tailSync.environment) ? Object.fromEntries((tailSync.environment as string[]).map((kv) => kv.split(/=(.*)/s).slice(0, 2))) : tailSync.environment ?? {};
    expect(env.EVENT_STORE).toBe('postgres');
    expect(env).not.toHaveProperty('EVENTSTORE_CONNECTION_STRING');
    expect(tailSync.depends_on).toEqual({
      kafka: expect.objectContaining({ condition: 'service_healthy' }),
      postgres: expect.objectContaining({ condition: 'service_healthy' }),
    });
    // Behind a profile no one enables: not among the services Compose starts.
    expect(Object.keys(merged.services).sort()).toEqual(['gateway', 'kafka', 'postgres', 'tail-sync', 'webhook-dispatcher']);
  });
});

describe('the EventStoreDB service, as Compose makes it', () => {
  const volumeTarget = (env: Record<string, string>) =>
    (composeConfig(['docker-compose.yml'], env).services.eventstore.volumes as unknown as { source: string; target: string }[]).map((v) => `${v.source}:${v.target}`);

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

describe('docker-compose.eventstore-secure.yml', () => {
  const merged = composeConfig(['docker-compose.yml', 'docker-compose.eventstore-secure.yml'], {
    EVENTSTORE_CERTS_DIR: '/srv/eventstore-certs',
    EVENTSTORE_USER: 'tailsync',
    EVENTSTORE_PASSWORD: 'operator-password',
  });

  it("runs EventStoreDB secure with the operator's certificates, and tail-sync on TLS, trusting their CA, as their user", () => {
    const eventstore = merged.services.eventstore;
    expect(eventstore.environment).toMatchObject({
      EVENTSTORE_INSECURE: 'false',
      EVENTSTORE_CERTIFICATE_FILE: '/etc/eventstore/certs/node.crt',
      EVENTSTORE_TRUSTED_ROOT_CERTIFICATES_PATH: '/etc/eventstore/certs/ca',
    });
    const mounts = (service: string) => (merged.services[service].volumes as unknown as { source: string; target: string }[]).map((v) => `${v.source}:${v.target}`);
    expect(mounts('eventstore')).toContain('/srv/eventstore-certs:/etc/eventstore/certs');
    expect(mounts('tail-sync')).toContain('/srv/eventstore-certs/ca:/etc/tailsync/eventstore-ca');
    expect(merged.services['tail-sync'].environment?.EVENTSTORE_CONNECTION_STRING).toBe(
      'esdb://tailsync:operator-password@eventstore:2113?tls=true&tlsCAFile=/etc/tailsync/eventstore-ca/ca.crt',
    );
  });
});
