import { IsString, Matches } from 'class-validator';
import { CommonConfig } from './common.config';

/** Settings of a service the gateway calls over gRPC (tail-sync, webhook-dispatcher). */
export class CalledServiceConfig extends CommonConfig {
  /**
   * The gateway's public keys (Ed25519, SPKI PEM, one or more one after the other): every call must
   * carry a caller signed with one of their pairs, named by its kid. Two during a rotation.
   */
  @IsString({ message: 'SERVICE_VERIFY_KEY (or SERVICE_VERIFY_KEY_FILE) is required: the PEM public key(s) of the gateway\'s SERVICE_SIGNING_KEY' })
  @Matches(/-----BEGIN PUBLIC KEY-----/, { message: 'SERVICE_VERIFY_KEY must be a PEM public key (-----BEGIN PUBLIC KEY-----)' })
  SERVICE_VERIFY_KEY: string;
}
