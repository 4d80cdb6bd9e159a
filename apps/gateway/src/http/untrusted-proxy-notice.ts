import type { Logger } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';

/**
 * With TRUST_PROXY off, the gateway sees the connecting address only: behind a proxy or a load
 * balancer that is the proxy's, for every client, so one address's sign-in block would refuse
 * everyone. Says so once at start-up, and once (a warning) when a request shows it is the case:
 * it carries X-Forwarded-For or Forwarded, which only a proxy adds.
 */
export function noticeUntrustedProxy(http: FastifyInstance, trustProxy: string | undefined, logger: Pick<Logger, 'log' | 'warn'>): void {
  if (trustProxy !== undefined) return;
  logger.log('TRUST_PROXY is off: client addresses (access log, sign-in limits) are the connecting ones; behind a proxy or load balancer, set TRUST_PROXY to it');
  let warned = false;
  http.addHook('onRequest', (req, _reply, done) => {
    if (!warned && (req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined)) {
      warned = true;
      logger.warn({ msg: 'a request came through a proxy (X-Forwarded-For) but TRUST_PROXY is off: every client it forwards shares its address for the sign-in limits; set TRUST_PROXY to that proxy', proxyAddress: req.socket.remoteAddress });
    }
    done();
  });
}
