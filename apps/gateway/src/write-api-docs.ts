/**
 * Writes docs/api/openapi.json and docs/api/asyncapi.json, the documents the gateway serves, for
 * review: `npm run api-docs`. The e2e suite fails when what the gateway serves differs from them
 * (e2e/src/api-documents.e2e.ts), so run it after changing a route, a DTO or a topic.
 *
 * Nest's preview mode builds the module graph without instantiating anything, so no database or
 * broker is needed; the configuration only has to load, hence the placeholders.
 */
import 'reflect-metadata';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { asyncApiDocument } from '@tailsync/contracts';
import { loadConfig } from '@tailsync/service-kit';
import { appModule } from './app.module';
import { GatewayConfig } from './config/gateway.config';
import { openApiDocument } from './http/openapi-document';

/** The server URL the committed document names; the drift test puts the served one's in its place. */
export const DOCUMENTED_BASE_URL = 'https://tailsync.example.com';
const OUT = join(__dirname, '..', '..', '..', 'docs', 'api');

async function main(): Promise<void> {
  const placeholders: Record<string, string> = {
    DATABASE_URL: 'postgres://preview@127.0.0.1:1/preview',
    ADMIN_TOKEN: 'preview-admin-token-preview-admin-token',
    JWT_SECRET: 'preview-jwt-secret-preview-jwt-secret-00',
    SERVICE_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
  for (const [name, value] of Object.entries(placeholders)) process.env[name] ??= value;
  const config = loadConfig(GatewayConfig);
  const app = await NestFactory.create(appModule(config), new FastifyAdapter(), { preview: true, logger: false });
  writeFileSync(join(OUT, 'openapi.json'), `${JSON.stringify(openApiDocument(app as never, DOCUMENTED_BASE_URL), null, 2)}\n`);
  writeFileSync(join(OUT, 'asyncapi.json'), `${JSON.stringify(asyncApiDocument(), null, 2)}\n`);
  process.stdout.write(`wrote ${join(OUT, 'openapi.json')} and asyncapi.json\n`);
}

main().then(() => process.exit(0), (error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
