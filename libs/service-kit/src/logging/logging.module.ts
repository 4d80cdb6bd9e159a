import { IncomingMessage } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { requestIdOf } from '../bootstrap/request-id';

/**
 * Structured JSON logs with a request id (`X-Request-Id` echoed or generated).
 * Credentials are redacted wherever they could appear in a logged request.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.body',
  'res.headers["set-cookie"]',
  '*.sharedSecret',
  '*.clientSecret',
  '*.client_secret',
  '*.access_token',
  '*.password',
];

export function loggingModule(service: string, level: string) {
  return LoggerModule.forRoot({
    pinoHttp: {
      level,
      base: { service },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      // Used only when the HTTP adapter has not set `req.id` (startService's does, and echoes it).
      genReqId: (req: IncomingMessage, res) => {
        const id = requestIdOf(req);
        res.setHeader('X-Request-Id', id);
        return id;
      },
      // Middleware sees the path relative to where it is mounted; originalUrl is the whole one.
      autoLogging: { ignore: (req) => isProbe((req as { originalUrl?: string }).originalUrl ?? req.url ?? '') },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    },
  });
}

function isProbe(url: string): boolean {
  return url.startsWith('/health') || url === '/metrics';
}
