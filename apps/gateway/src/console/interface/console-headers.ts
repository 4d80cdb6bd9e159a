import type { FastifyReply } from 'fastify';

/**
 * Only the console's own files may run or load: integrators' values it shows can never bring in a
 * script, a style or a frame, even if one slipped past the DOM building.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function sendConsoleFile(reply: FastifyReply, contentType: string, body: Buffer | string): void {
  void reply
    .header('Content-Security-Policy', CONSOLE_CSP)
    .header('X-Content-Type-Options', 'nosniff')
    .header('X-Frame-Options', 'DENY')
    .header('Referrer-Policy', 'no-referrer')
    .header('Cache-Control', 'no-store')
    .type(contentType)
    .send(body);
}
