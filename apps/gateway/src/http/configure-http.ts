import { startBudget } from '../services/infrastructure/request-budget';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import bytes from 'bytes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parse as parseForm } from 'node:querystring';
import { GatewayConfig } from '../config/gateway.config';
import { UnsupportedMediaType, ValidationProblem } from '../problems/domain/problem';
import { nulInJson, nulInUrl } from './nul-characters';
import { noticeUntrustedProxy } from './untrusted-proxy-notice';
import { loneSurrogateInJson } from './lone-surrogates';
import { lingerBeforeEarlyAnswers } from './lingering-close';
import { openApiDocument } from './openapi-document';
import { pathOf } from '@tailsync/service-kit';
import { asyncApiDocument } from '@tailsync/contracts';

const JSON_TYPES = /^application\/(?:[\w.+-]+\+)?json$/i;
const FORM_LIMIT = 16 * 1024;
// An oversized body up to this size is read and dropped so its sender sees the 413 (see lingering-close).
const LINGER_BYTES_PER_LIMIT = 8;
const LINGER_MS = 5_000;

/**
 * Body parsing: JSON everywhere, a form only at /oauth/token (OAuth2 clients send one). Any other
 * body is refused with 415, a body over BODY_LIMIT with 413, malformed JSON with a 400 problem,
 * and so is U+0000 in the URL or the JSON (see nul-characters), or a lone surrogate in the JSON.
 * Then the OpenAPI document and Swagger UI, and the AsyncAPI document of the Kafka topics.
 */
export function configureHttp(app: NestFastifyApplication, config: GatewayConfig): void {
  const http = app.getHttpAdapter().getInstance();
  http.addHook('onRequest', (req, _reply, done) => {
    startBudget(req, config.RPC_TIMEOUT_MS);
    done(nulInUrl(req.url) ?? undefined);
  });
  noticeUntrustedProxy(http, config.TRUST_PROXY, new Logger('http'));
  acceptBodies(http, config);

  const document = openApiDocument(app, config.PUBLIC_BASE_URL);
  http.get('/openapi.json', (_req, reply) => reply.send(document));
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', raw: false });
  const asyncApi = asyncApiDocument();
  http.get('/asyncapi.json', (_req, reply) => reply.send(asyncApi));
}

function acceptBodies(http: FastifyInstance, config: GatewayConfig): void {
  const bodyLimit = bytes.parse(config.BODY_LIMIT);
  if (bodyLimit === null) throw new Error(`BODY_LIMIT '${config.BODY_LIMIT}' is not a size (e.g. 2mb)`);
  // Fastify's own text/plain parser would hand plain text to the handlers: drop it (→ 415).
  lingerBeforeEarlyAnswers(http, { maxBytes: LINGER_BYTES_PER_LIMIT * bodyLimit, maxMs: LINGER_MS });
  http.removeAllContentTypeParsers();
  const parseJson = http.getDefaultJsonParser('error', 'error');
  http.addContentTypeParser(JSON_TYPES, { parseAs: 'string', bodyLimit }, (req, body, done) =>
    parseJson(req, body as string, (error, value) => {
      if (error) return done(new ValidationProblem({}, [jsonError(error)]), undefined);
      const unstorable = nulInJson(body as string, value) ?? loneSurrogateInJson(body as string, value);
      return unstorable ? done(unstorable, undefined) : done(null, value);
    }),
  );
  http.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT }, (req: FastifyRequest, body, done) => {
    if (pathOf(req) !== '/oauth/token') return done(new UnsupportedMediaType(), undefined);
    done(null, { ...parseForm(body as string) });
  });
}

function jsonError(error: Error): string {
  return (error as { code?: string }).code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'The request body is empty.' : 'The request body is not valid JSON.';
}
