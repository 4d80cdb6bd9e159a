import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCompose } from './compose-check';


const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

// The override files, as Compose merges them, are checked with `docker compose config` in
// e2e/compose/src/compose-config.compose.ts (`npm run test:compose`: Docker, which `npm test` does not need).
describe('docker-compose.yml', () => {
  const compose = readCompose();

  it('runs the infrastructure and the three apps, the apps built from the one Dockerfile', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['eventstore', 'gateway', 'jaeger', 'kafka', 'postgres', 'tail-sync', 'webhook-dispatcher']);
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
    expect(image('jaeger')).toEqual(['JAEGER_IMAGE', 'jaegertracing/jaeger:2.13.0']);
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

  it("runs Jaeger only in the `tracing` profile; the apps pass the standard OTLP variables on, tracing off when unset", () => {
    expect(compose.services.jaeger.profiles).toEqual(['tracing']);
    for (const app of ['gateway', 'tail-sync', 'webhook-dispatcher']) {
      const service = compose.services[app];
      expect(Object.keys(service.depends_on ?? {})).not.toContain('jaeger');
      expect(service.environment?.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('${OTEL_EXPORTER_OTLP_ENDPOINT:-}');
    }
  });
});
