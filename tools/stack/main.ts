/**
 * `npm start`: the whole local stack — PostgreSQL and Kafka (embedded unless DATABASE_URL /
 * KAFKA_BROKERS are set) and the three apps — until Ctrl-C.
 */
import { join } from 'node:path';
import { AppProcess, spawnApp, waitForHttp } from './app-process';
import { grpcEnv } from './grpc-env';
import { localSecrets, REPO_ROOT, startInfrastructure } from './infrastructure';

const dataDir = join(REPO_ROOT, '.data', 'stack');
const log = (line: string) => process.stdout.write(`[stack] ${line}\n`);

async function main() {
  const started = Date.now();
  const infra = await startInfrastructure({
    dataDir,
    kafkaPort: Number(process.env.EMBEDDED_KAFKA_PORT ?? 9092),
    postgresPort: Number(process.env.EMBEDDED_POSTGRES_PORT ?? 54329),
    database: 'tailsync',
    log,
  });
  const secrets = localSecrets(dataDir);
  const port = process.env.PORT ?? '3000';
  const env = {
    ...infra.env,
    ...secrets,
    PORT: port,
    ...grpcEnv({ 'tail-sync': [3051], 'webhook-dispatcher': [3052] }),
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? `http://localhost:${port}`,
  };
  const apps: AppProcess[] = (['tail-sync', 'webhook-dispatcher', 'gateway'] as const).map((name) =>
    spawnApp(name, env, join(dataDir, 'logs')),
  );
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping…');
    await Promise.all(apps.map((a) => a.stop()));
    await infra.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  for (const app of apps) {
    void app.exited.then((code) => {
      if (!stopping) {
        log(`${app.instance} exited (code ${code}); see ${join(dataDir, 'logs', `${app.instance}.log`)}`);
        void stop(1);
      }
    });
  }
  const base = `http://localhost:${port}`;
  await waitForHttp(`${base}/health/ready`, 120_000, apps);
  log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  log(`API:      ${base}   (OpenAPI ${base}/openapi.json, Swagger UI ${base}/docs)`);
  log(`Metrics and detailed readiness: http://localhost:${process.env.MANAGEMENT_PORT ?? 9464}/metrics, /health/ready`);
  log(`Admin token (kept in ${join(dataDir, 'secrets.json')}): ${secrets.ADMIN_TOKEN}`);
  log('Create a service account, then get an access token:');
  log(`  curl -s -X POST ${base}/admin/ServiceAccounts -H 'Authorization: Bearer ${secrets.ADMIN_TOKEN}' -H 'Content-Type: application/json' -d '{"domain":"acme","name":"Acme EFB"}'`);
  log(`  curl -s -X POST ${base}/oauth/token -d grant_type=client_credentials -d client_id=<clientId> -d client_secret=<clientSecret>`);
  log('Logs: ' + join(dataDir, 'logs') + '   Ctrl-C stops everything.');
}

main().catch((error) => {
  process.stderr.write(`[stack] failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
