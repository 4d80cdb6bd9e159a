import type { OnApplicationShutdown } from '@nestjs/common';
import { type CallerIdentity, CallerTokenSigner, RereadSecret, settingFile, type SignedCaller } from '@tailsync/service-kit';
import type { GatewayConfig } from '../../config/gateway.config';

/**
 * The key that signs the gateway's callers, `SERVICE_SIGNING_KEY`, read again when its file
 * changes: the gateway moves to a new pair without a restart, once the services trust its
 * public half (docs/operations.md, "Rotating the service key pair").
 */
export class ServiceSigningKey implements OnApplicationShutdown {
  private readonly key: RereadSecret<CallerTokenSigner>;

  constructor(settings: GatewayConfig) {
    this.key = new RereadSecret({
      setting: 'SERVICE_SIGNING_KEY',
      text: settings.SERVICE_SIGNING_KEY,
      file: settingFile(settings, 'SERVICE_SIGNING_KEY'),
      parse: (pem) => new CallerTokenSigner(pem),
      describe: ({ kid }) => ({ kid }),
    });
  }

  /** The kid of the key in use. */
  get kid(): string {
    return this.key.current.kid;
  }

  sign(caller: CallerIdentity, audience: string): SignedCaller {
    return this.key.current.sign(caller, audience);
  }

  onApplicationShutdown(): void {
    this.key.stop();
  }
}
