import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isDependencyDown, pathOf, requestCorrelation } from '@tailsync/service-kit';
import { GatewayConfig } from '../../config/gateway.config';
import { Conflict, InternalError, NotFound, PayloadTooLarge, Problem, ServiceUnavailable, Unauthorized, UnsupportedMediaType, ValidationProblem } from '../domain/problem';
import { problemBody } from '../domain/problem-body';
import { oauthErrorOf, TOKEN_PATH } from '../domain/oauth-error';

/** Every error leaves the gateway as a problem: never a stack trace, never a bare 500 for bad input. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('problems');

  constructor(private readonly config: GatewayConfig) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<FastifyRequest>();
    sendProblem(req, ctx.getResponse<FastifyReply>(), toProblem(error), this.config.PUBLIC_BASE_URL, this.logger, error);
  }
}

export function sendProblem(req: FastifyRequest, res: FastifyReply, problem: Problem, baseUrl: string, logger: Logger, cause?: unknown): void {
  // OAuth clients read RFC 6749's `error` at the token endpoint, whatever refused the request there.
  const body = { ...problemBody(problem, baseUrl), ...(pathOf(req) === TOKEN_PATH ? oauthErrorOf(problem) : {}) };
  const log = { instance: body.instance, status: body.status, method: req.method, path: pathOf(req), ...requestCorrelation(req) };
  if (problem.status >= 500) logger.error({ ...log, cause: cause instanceof Error && !(cause instanceof Problem) ? cause.message : undefined });
  else logger.debug?.(log);
  if (res.sent) return;
  res.status(problem.status).headers(problem.headers).type('application/problem+json').send(JSON.stringify(body));
}

/** Maps framework and body-parser errors onto the contract's problems. */
export function toProblem(error: unknown): Problem {
  if (error instanceof Problem) return error;
  // Nest hands Fastify's own errors (body too large, unsupported media type) over as HttpExceptions.
  const e = error as { statusCode?: number };
  if (error instanceof HttpException || typeof e?.statusCode === 'number') {
    const status = error instanceof HttpException ? error.getStatus() : (e.statusCode as number);
    if (status === 404) return new NotFound('No such endpoint.');
    if (status === 401) return new Unauthorized();
    if (status === 409) return new Conflict('Conflict.');
    if (status === 413) return new PayloadTooLarge();
    if (status === 415) return new UnsupportedMediaType();
    if (status === 405) return new Problem(405, 'not-found', 'Method not allowed.', {}, ['This method is not allowed on this endpoint.']);
    if (status >= 400 && status < 500) return new ValidationProblem({}, [error instanceof Error ? error.message : 'The request is invalid.']);
  }
  // The gateway's own database (accounts, tokens, the admin API) unreachable: the contract's 503.
  if (isDependencyDown(error)) return new ServiceUnavailable();
  return new InternalError();
}
