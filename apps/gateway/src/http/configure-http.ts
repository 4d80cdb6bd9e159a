import { INestApplication, Logger } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { API_VERSION } from '@tailsync/contracts';
import express, { NextFunction, Request, Response } from 'express';
import { GatewayConfig } from '../config/gateway.config';
import { UnsupportedMediaType } from '../problems/problem';
import { sendProblem, toProblem } from '../problems/problem.filter';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Body parsing with problem answers for every parser failure (malformed JSON 400, too large 413,
 * not JSON 415), then the OpenAPI document and Swagger UI.
 */
export function configureHttp(app: INestApplication, config: GatewayConfig): void {
  const logger = new Logger('http');
  const http = app.getHttpAdapter().getInstance() as express.Express;
  http.disable('x-powered-by');
  http.set('etag', false);
  app.use((req: Request, _res: Response, next: NextFunction) => {
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    const form = req.path === '/oauth/token' && req.is('application/x-www-form-urlencoded');
    if (BODY_METHODS.has(req.method) && hasBody && !form && !req.is(['application/json', 'application/*+json'])) {
      return next(new UnsupportedMediaType());
    }
    next();
  });
  app.use(express.json({ limit: config.BODY_LIMIT, type: ['application/json', 'application/*+json'] }));
  app.use(express.urlencoded({ extended: false, limit: '16kb' }));
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    sendProblem(req, res, toProblem(error), config.PUBLIC_BASE_URL, logger, error);
  });

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('tailsync')
      .setDescription('Keeps integrated applications\' aircraft tails in step and notifies them by signed webhook.')
      .setVersion(API_VERSION)
      .addBearerAuth()
      .addServer(config.PUBLIC_BASE_URL)
      .build(),
  );
  http.get('/openapi.json', (_req: Request, res: Response) => res.json(document));
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', raw: false });
}
