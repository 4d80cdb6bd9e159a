import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ComposeFile, readCompose } from './compose-check';


const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

// The override files, as Compose merges them, are checked with `docker compose config` in
// e2e/compose/src/compose-config.compose.ts (`npm run test:compose`: Docker, which `npm test` does not need).
// The one-shots that run before the apps, each on every `up`, in tail-sync's image.
const ONE_SHOTS = ['kafka-init', 'grpc-certs', 'postgres-roles'];

describe('docker-compose.yml', () => {
  const compose = readCompose();
  // The release compose pins by default: the one package.json and CHANGELOG.md are at.
  const release = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

  it('runs the infrastructure and the three apps, the apps built from the one Dockerfile', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['eventstore', 'gateway', 'grpc-certs', 'jaeger', 'kafka', 'kafka-init', 'postgres', 'postgres-roles', 'tail-sync', 'webhook-dispatcher']);
    for (const app of ['gateway', 'tail-sync', 'webhook-dispatcher']) {
      expect(compose.services[app].build).toEqual({
        context: '.',
        args: { APP: app, NODE_IMAGE: '${NODE_IMAGE:-node:24.21-bookworm-slim}', TAILSYNC_VERSION: `\${TAILSYNC_VERSION:-${release}}`, TAILSYNC_REVISION: '${TAILSYNC_REVISION:-}', TAILSYNC_CREATED: '${TAILSYNC_CREATED:-}' },
      });
      expect(compose.services[app].image).toBe(`\${TAILSYNC_IMAGE_PREFIX:-ghcr.io/tailsync}/tailsync-${app}:\${TAILSYNC_VERSION:-${release}}`);
      expect(existsSync(join(REPO_ROOT, 'apps', app, 'src', 'main.ts'))).toBe(true);
    }
    expect(existsSync(join(REPO_ROOT, 'Dockerfile'))).toBe(true);
    // The one-shots run tail-sync's image, which carries their commands.
    const commands: Record<string, string> = { 'kafka-init': 'tools/cli/kafka-principals.ts', 'grpc-certs': 'tools/cli/grpc-certificates.ts', 'postgres-roles': 'tools/cli/database-roles.ts' };
    for (const oneShot of ONE_SHOTS) {
      expect(compose.services[oneShot]).toMatchObject({ build: compose.services['tail-sync'].build, image: compose.services['tail-sync'].image });
      expect(compose.services[oneShot].command?.slice(0, 3)).toEqual(['node', 'tools/run.js', commands[oneShot]]);
      expect(readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8')).toMatch(new RegExp(`COPY .*${commands[oneShot]}`));
    }
  });

  it('names its images in settings whose defaults are the official images', () => {
    const image = (service: string) => /^\$\{(\w+):-([^}]+)\}$/.exec(compose.services[service].image ?? '')?.slice(1);
    expect(image('eventstore')).toEqual(['EVENTSTORE_IMAGE', 'eventstore/eventstore:24.10']);
    expect(image('kafka')).toEqual(['KAFKA_IMAGE', 'apache/kafka:3.9.1']);
    expect(image('postgres')).toEqual(['POSTGRES_IMAGE', 'postgres:18']);
    expect(image('jaeger')).toEqual(['JAEGER_IMAGE', 'jaegertracing/jaeger:2.13.0']);
    expect(readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8')).toMatch(/^ARG NODE_IMAGE=node:24\.21-bookworm-slim$/m);
  });

  it('restarts every service by itself (the one-shots excepted) and keeps the stores\' data in named volumes', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      expect({ name, restart: service.restart }).toEqual({ name, restart: ONE_SHOTS.includes(name) ? 'no' : 'unless-stopped' });
    }
    expect(compose.services.kafka.volumes).toEqual(['kafka-data:/var/lib/kafka/data', './compose/kafka-start.sh:/opt/tailsync/kafka-start.sh:ro']);
    expect(compose.services.kafka.environment?.KAFKA_LOG_DIRS).toBe('/var/lib/kafka/data');
    expect(compose.services.postgres.volumes).toEqual(['postgres-data:/var/lib/postgresql']);
    expect(compose.services.eventstore.volumes).toEqual(['eventstore-data:${EVENTSTORE_DATA_DIR:-/var/lib/eventstore}', '${EVENTSTORE_CERTS_DIR:-./eventstore-certs}:/etc/eventstore/certs:ro']);
  });

  it('gives every long-running service a health check and makes every dependency wait for health, or for a one-shot to succeed', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      expect({ name, healthcheck: Boolean(service.healthcheck?.test) }).toEqual({ name, healthcheck: !ONE_SHOTS.includes(name) });
      const deps = service.depends_on ?? {};
      expect(Array.isArray(deps)).toBe(false);
      for (const [dep, { condition }] of Object.entries(deps)) {
        expect(Object.keys(compose.services)).toContain(dep);
        expect({ dep, condition }).toEqual({ dep, condition: ONE_SHOTS.includes(dep) ? 'service_completed_successfully' : 'service_healthy' });
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

describe('Kafka in docker-compose.yml (docs/kafka-security.md)', () => {
  const compose = readCompose();
  const kafka = compose.services.kafka.environment ?? {};

  it('runs SASL on every listener (SCRAM for clients, PLAIN on the controller), with ACLs enforced and admin the only super user', () => {
    const protocols = Object.fromEntries(String(kafka.KAFKA_LISTENER_SECURITY_PROTOCOL_MAP).split(',').map((p) => p.split(':')));
    expect(protocols).toEqual({ CONTROLLER: 'SASL_PLAINTEXT', INTERNAL: 'SASL_PLAINTEXT', EXTERNAL: 'SASL_PLAINTEXT' });
    expect(String(kafka.KAFKA_LISTENERS).split(',').map((l) => l.split('://')[0]).sort()).toEqual(['CONTROLLER', 'EXTERNAL', 'INTERNAL']);
    expect(kafka).toMatchObject({
      KAFKA_LISTENER_NAME_INTERNAL_SASL_ENABLED_MECHANISMS: 'SCRAM-SHA-512,SCRAM-SHA-256',
      KAFKA_LISTENER_NAME_EXTERNAL_SASL_ENABLED_MECHANISMS: 'SCRAM-SHA-512,SCRAM-SHA-256',
      KAFKA_LISTENER_NAME_CONTROLLER_SASL_ENABLED_MECHANISMS: 'PLAIN',
      KAFKA_AUTHORIZER_CLASS_NAME: 'org.apache.kafka.metadata.authorizer.StandardAuthorizer',
      KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND: 'false',
      KAFKA_SUPER_USERS: 'User:admin',
    });
    // The broker's own login comes from the secret, through the start script, never the environment.
    expect(compose.services.kafka.secrets).toEqual(['kafka_admin_password']);
    expect(Object.keys(kafka).filter((k) => k.endsWith('JAAS_CONFIG'))).toEqual([]);
    expect(existsSync(join(REPO_ROOT, 'compose', 'kafka-start.sh'))).toBe(true);
  });

  it('connects each service as its own principal, after kafka-init has set the principals', () => {
    for (const [app, principal] of [['tail-sync', 'tail-sync'], ['webhook-dispatcher', 'webhook-dispatcher']]) {
      const secret = `kafka_${principal.replace(/-/g, '_')}_password`;
      expect(compose.services[app].environment).toMatchObject({ KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: principal, KAFKA_SASL_PASSWORD_FILE: `/run/secrets/${secret}` });
      expect(compose.services[app].secrets).toContain(secret);
      expect(compose.services[app].depends_on).toMatchObject({ 'kafka-init': { condition: 'service_completed_successfully' } });
    }
    expect(compose.services.gateway.environment).not.toHaveProperty('KAFKA_BROKERS');
    expect(compose.services['kafka-init'].environment).toMatchObject({
      KAFKA_SASL_USERNAME: 'admin',
      KAFKA_SASL_PASSWORD_FILE: '/run/secrets/kafka_admin_password',
      TAILSYNC_KAFKA_TAIL_SYNC_PASSWORD_FILE: '/run/secrets/kafka_tail_sync_password',
      TAILSYNC_KAFKA_WEBHOOK_DISPATCHER_PASSWORD_FILE: '/run/secrets/kafka_webhook_dispatcher_password',
      TAILSYNC_KAFKA_PRODUCT_PASSWORD_FILE: '/run/secrets/kafka_product_password',
      TAILSYNC_KAFKA_READER_PASSWORD_FILE: '/run/secrets/kafka_reader_password',
    });
  });
});

describe('docker-compose.yml hardening', () => {
  const compose = readCompose();
  const apps = ['gateway', 'tail-sync', 'webhook-dispatcher'];

  it('drops every capability and privilege escalation, limits memory and stops with grace above the attempt time-out', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      expect({ name, cap_drop: service.cap_drop, security_opt: service.security_opt }).toEqual({ name, cap_drop: ['ALL'], security_opt: ['no-new-privileges:true'] });
      expect({ name, mem_limit: service.mem_limit }).toEqual({ name, mem_limit: expect.stringMatching(/^\$\{[A-Z_]+_MEMORY:-\d+[mg]\}$/) });
      expect({ name, grace: service.stop_grace_period }).toEqual({ name, grace: '${TAILSYNC_STOP_GRACE:-40s}' });
    }
    // The dispatcher's stop waits for attempts in flight up to the time-out plus 10 s (delivery.scheduler.ts).
    const defaultOf = (value: unknown) => Number(/:-(\d+)s?\}$/.exec(String(value))?.[1]);
    const graceSeconds = defaultOf(compose.services['webhook-dispatcher'].stop_grace_period);
    const attemptSeconds = defaultOf(compose.services['webhook-dispatcher'].environment?.WEBHOOK_ATTEMPT_TIMEOUT_MS) / 1000;
    expect(attemptSeconds).toBe(10);
    expect(graceSeconds).toBeGreaterThan(attemptSeconds + 10);
  });

  it('runs the apps and PostgreSQL on read-only roots, with tmpfs where they write', () => {
    for (const name of [...apps, 'postgres']) expect({ name, read_only: compose.services[name].read_only }).toEqual({ name, read_only: true });
    for (const name of apps) expect(compose.services[name].tmpfs).toEqual(['/tmp']);
    expect(compose.services.postgres.tmpfs).toEqual(['/tmp', '/var/run/postgresql:uid=999,gid=999']);
  });

  it("publishes the gateway, and besides it only Kafka's EXTERNAL listener and the tracing UI, on the host's loopback unless told", () => {
    const published = (file: ComposeFile) => Object.fromEntries(Object.entries(file.services).filter(([, s]) => s.ports).map(([name, s]) => [name, s.ports]));
    expect(published(compose)).toEqual({
      gateway: ['${GATEWAY_BIND:-0.0.0.0}:${GATEWAY_PORT:-3000}:3000'],
      kafka: ['${KAFKA_EXTERNAL_BIND:-127.0.0.1}:${KAFKA_EXTERNAL_PORT:-9094}:9094'],
      jaeger: ['${JAEGER_UI_BIND:-127.0.0.1}:${JAEGER_UI_PORT:-16686}:16686'],
    });
    // The overrides publish nothing more (read as text: they use Compose's own tags), but the
    // three-node one its other nodes' EXTERNAL listeners, which outside clients are sent to.
    const overridePorts: Record<string, string[]> = {
      'docker-compose.kafka-cluster.yml': ['${KAFKA_EXTERNAL_BIND:-127.0.0.1}:${KAFKA_2_EXTERNAL_PORT:-9095}:9094', '${KAFKA_EXTERNAL_BIND:-127.0.0.1}:${KAFKA_3_EXTERNAL_PORT:-9096}:9094'],
    };
    for (const override of readdirSync(REPO_ROOT).filter((f) => /^docker-compose\..+\.yml$/.test(f))) {
      const text = readFileSync(join(REPO_ROOT, override), 'utf8');
      const ports = [...text.matchAll(/^\s+ports:.*\n((?:\s+- .+\n)+)/gm)].flatMap((m) => m[1].trim().split('\n').map((item) => item.trim().replace(/^- "?|"$/g, '')));
      expect({ override, ports }).toEqual({ override, ports: overridePorts[override] ?? [] });
    }
    // Inside its container an app listens on every interface (HOST), for its peers on the compose network.
    for (const name of apps) expect({ name, HOST: compose.services[name].environment?.HOST }).toEqual({ name, HOST: '0.0.0.0' });
  });

  it("gives each app its own certificate and key of the service network alone, read-only; the CA's key to grpc-certs alone", () => {
    const mounts = Object.fromEntries(Object.entries(compose.services).map(([name, service]) => [name, (service.volumes ?? []).filter((v) => String(v).startsWith('grpc-tls-'))]));
    expect(mounts).toEqual({
      ...Object.fromEntries(Object.keys(compose.services).map((name) => [name, []])),
      'grpc-certs': ['ca', 'gateway', 'tail-sync', 'webhook-dispatcher'].map((v) => `grpc-tls-${v}:/var/lib/tailsync/grpc-tls/${v}`),
      gateway: ['grpc-tls-gateway:/etc/tailsync/grpc-tls:ro'],
      'tail-sync': ['grpc-tls-tail-sync:/etc/tailsync/grpc-tls:ro'],
      'webhook-dispatcher': ['grpc-tls-webhook-dispatcher:/etc/tailsync/grpc-tls:ro'],
    });
    for (const app of ['gateway', 'tail-sync', 'webhook-dispatcher']) {
      expect(compose.services[app].environment).toMatchObject({ GRPC_TLS_CA_FILE: '/etc/tailsync/grpc-tls/ca.crt', GRPC_TLS_CERT_FILE: '/etc/tailsync/grpc-tls/tls.crt', GRPC_TLS_KEY_FILE: '/etc/tailsync/grpc-tls/tls.key' });
      expect(compose.services[app].depends_on).toHaveProperty('grpc-certs');
    }
  });

  it("connects each app as its own database role, with its own password; the admin's password to postgres-roles alone", () => {
    const mountedBy = (secret: string) => Object.entries(compose.services).filter(([, service]) => service.secrets?.includes(secret)).map(([name]) => name).sort();
    expect(mountedBy('postgres_password')).toEqual(['postgres', 'postgres-roles']);
    for (const app of ['gateway', 'tail-sync', 'webhook-dispatcher']) {
      const role = `tailsync_${app.replace(/-/g, '_')}`;
      expect(compose.services[app].environment).toMatchObject({ DATABASE_URL: `postgres://${role}@postgres:5432/tailsync`, DATABASE_PASSWORD_FILE: `/run/secrets/postgres_${role.slice('tailsync_'.length)}_password` });
      expect(mountedBy(`postgres_${role.slice('tailsync_'.length)}_password`)).toEqual([app, 'postgres-roles'].sort());
      expect(compose.services[app].depends_on).toHaveProperty('postgres-roles');
    }
    expect(compose.services['postgres-roles'].environment).toMatchObject({ DATABASE_URL: 'postgres://tailsync@postgres:5432/tailsync', DATABASE_PASSWORD_FILE: '/run/secrets/postgres_password' });
  });

  it('gives secrets only as files (*_FILE), never in an environment, each from the secrets directory', () => {
    const secretNames = Object.keys(compose.secrets ?? {}).sort();
    expect(secretNames).toEqual([
      'admin_token', 'eventstore_connection_string', 'jwt_secret', 'kafka_admin_password', 'kafka_product_password', 'kafka_reader_password', 'kafka_tail_sync_password',
      'kafka_webhook_dispatcher_password', 'postgres_gateway_password', 'postgres_password', 'postgres_tail_sync_password', 'postgres_webhook_dispatcher_password',
      'service_signing_key', 'service_verify_key', 'webhook_secret_key',
    ]);
    for (const name of secretNames) expect(compose.secrets?.[name].file).toBe(`\${TAILSYNC_SECRETS_DIR:-./secrets}/${name}`);
    for (const [name, service] of Object.entries(compose.services)) {
      const env = Object.entries(service.environment ?? {});
      expect({ name, inline: env.filter(([k]) => /(PASSWORD|SECRET|TOKEN|_KEY)$/.test(k)).map(([k]) => k) }).toEqual({ name, inline: [] });
      // Certificates and their keys are in mounted directories (the event store's, the service network's), not secrets.
      const certificateFile = (v: unknown) => (name === 'eventstore' && String(v).startsWith('/etc/eventstore/certs/')) || String(v).startsWith('/etc/tailsync/grpc-tls/');
      for (const [key, value] of env.filter(([k, v]) => k.endsWith('_FILE') && !certificateFile(v))) {
        const secret = String(value).replace('/run/secrets/', '');
        expect({ name, key, mounted: service.secrets?.includes(secret) }).toEqual({ name, key, mounted: true });
      }
    }
  });
});

describe('.env.example', () => {
  const interpolated = (file: string) =>
    [...readFileSync(join(REPO_ROOT, file), 'utf8').matchAll(/\$\{(\w+)(?::([?-])([^}]*))?\}/g)].map(([, name, op, fallback]) => ({ name, fallback: op === '-' ? fallback : undefined }));
  const example = new Map(
    readFileSync(join(REPO_ROOT, '.env.example'), 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const),
  );
  const used = [...interpolated('docker-compose.yml'), ...interpolated('docker-compose.postgres-store.yml')];

  it('shows every variable the compose files read, with the compose file\'s own default', () => {
    for (const { name, fallback } of used) expect({ name, example: example.get(name) }).toEqual({ name, example: fallback ?? expect.any(String) });
  });

  it('explains each variable in a comment above it, and names none the compose files do not read', () => {
    const text = readFileSync(join(REPO_ROOT, '.env.example'), 'utf8').split('\n');
    for (const name of example.keys()) {
      expect({ name, read: used.some((u) => u.name === name) }).toEqual({ name, read: true });
      const at = text.findIndex((line) => line.startsWith(`${name}=`));
      const above = text.slice(0, at).reverse().find((line) => !/^[A-Z_]+=/.test(line));
      expect({ name, explained: above?.startsWith('# ') }).toEqual({ name, explained: true });
    }
  });

  it('is the template of a git-ignored .env, beside a git-ignored secrets directory', () => {
    const ignored = readFileSync(join(REPO_ROOT, '.gitignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['.env', '/secrets/']));
  });
});

describe('EventStoreDB in docker-compose.yml: secure by default', () => {
  const compose = readCompose();

  it("runs with TLS and its users enforced, on the operator's certificates; tail-sync trusts their CA and reads its connection from a secret", () => {
    expect(compose.services.eventstore.environment).toMatchObject({
      EVENTSTORE_INSECURE: 'false',
      EVENTSTORE_CERTIFICATE_FILE: '/etc/eventstore/certs/node.crt',
      EVENTSTORE_CERTIFICATE_PRIVATE_KEY_FILE: '/etc/eventstore/certs/node.key',
      EVENTSTORE_TRUSTED_ROOT_CERTIFICATES_PATH: '/etc/eventstore/certs/ca',
    });
    const tailSync = compose.services['tail-sync'];
    expect(tailSync.environment).not.toHaveProperty('EVENTSTORE_CONNECTION_STRING');
    expect(tailSync.environment?.EVENTSTORE_CONNECTION_STRING_FILE).toBe('/run/secrets/eventstore_connection_string');
    expect(tailSync.secrets).toContain('eventstore_connection_string');
    expect(tailSync.volumes).toEqual(['grpc-tls-tail-sync:/etc/tailsync/grpc-tls:ro', '${EVENTSTORE_CERTS_DIR:-./eventstore-certs}/ca:/etc/tailsync/eventstore-ca:ro']);
    expect(existsSync(join(REPO_ROOT, 'docker-compose.eventstore-secure.yml'))).toBe(false); // folded in: no override to forget
  });
});
