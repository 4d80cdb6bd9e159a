import { randomUUID } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import { LoggerModule } from 'nestjs-pino';

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
      genReqId: (req: IncomingMessage, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      autoLogging: { ignore: (req) => (req.url ?? '').startsWith('/health') || req.url === '/metrics' },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
      },
    },
  });
}
