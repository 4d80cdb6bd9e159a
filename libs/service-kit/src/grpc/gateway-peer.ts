import { Logger } from '@nestjs/common';
import { type ServerInterceptor, ServerInterceptingCall, status } from '@grpc/grpc-js';
import type { PeerCertificate } from 'node:tls';

/** The name a gateway's client certificate carries (its common name, or a DNS subject alternative name). */
export const GATEWAY_CERTIFICATE_NAME = 'gateway';

const logger = new Logger('grpc');

/** True when the certificate names the gateway (the CA checked it already). */
export function namesGateway(certificate: PeerCertificate | undefined): boolean {
  if (!certificate) return false;
  const altNames = (certificate.subjectaltname ?? '').split(',').map((name) => name.trim());
  return certificate.subject?.CN === GATEWAY_CERTIFICATE_NAME || altNames.includes(`DNS:${GATEWAY_CERTIFICATE_NAME}`);
}

/**
 * Refuses every call over a connection whose client certificate, though issued by the CA, was
 * not issued to the gateway (another service's, say): only the gateway calls the services.
 */
export const requireGatewayPeer: ServerInterceptor = (method, call) =>
  new ServerInterceptingCall(call, {
    start: (next) => {
      next({
        onReceiveMetadata: (metadata, passOn) => {
          const certificate = call.getAuthContext().sslPeerCertificate;
          if (namesGateway(certificate)) return passOn(metadata);
          logger.warn({ msg: 'call refused', reason: 'the client certificate does not name the gateway', method: method.path, subject: certificate?.subject?.CN ?? null });
          call.sendStatus({ code: status.UNAUTHENTICATED, details: 'The client certificate is not the gateway\'s.' });
        },
      });
    },
  });
