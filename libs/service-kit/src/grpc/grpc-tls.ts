import { ChannelCredentials, experimental, ServerCredentials } from '@grpc/grpc-js';
import { requireGatewayPeer } from './gateway-peer';

/**
 * Mutual TLS between the gateway and the services (GRPC_TLS_CA_FILE, GRPC_TLS_CERT_FILE,
 * GRPC_TLS_KEY_FILE): each side proves itself with a certificate the shared CA issued. A signed
 * caller is reused for up to a minute, so a captured one could be replayed over plaintext: the
 * transport, not the token, closes that.
 */
export interface GrpcTlsFiles {
  caFile: string;
  certFile: string;
  keyFile: string;
}

export interface GrpcTlsSettings {
  GRPC_TLS_CA_FILE?: string;
  GRPC_TLS_CERT_FILE?: string;
  GRPC_TLS_KEY_FILE?: string;
}

/** How often the files are read again: a rotated certificate is used without a restart. */
export const GRPC_TLS_REFRESH_MS = 5_000;

/** The three files, or undefined for plaintext; one or two of them set is a configuration error. */
export function grpcTlsFiles(settings: GrpcTlsSettings): GrpcTlsFiles | undefined {
  const { GRPC_TLS_CA_FILE: caFile, GRPC_TLS_CERT_FILE: certFile, GRPC_TLS_KEY_FILE: keyFile } = settings;
  if (!caFile && !certFile && !keyFile) return undefined;
  if (!caFile || !certFile || !keyFile) {
    throw new Error('GRPC_TLS_CA_FILE, GRPC_TLS_CERT_FILE and GRPC_TLS_KEY_FILE go together: set all three for mutual TLS, or none');
  }
  return { caFile, certFile, keyFile };
}

/**
 * One provider of the CA and the identity, passed as both: grpc-js 1.14's server credentials
 * take the two providers in the opposite order of their factory's parameters, so two distinct
 * providers would leave the server without a certificate.
 */
function watched(files: GrpcTlsFiles): experimental.CertificateProvider {
  return new experimental.FileWatcherCertificateProvider({
    caCertificateFile: files.caFile,
    certificateFile: files.certFile,
    privateKeyFile: files.keyFile,
    refreshIntervalMs: GRPC_TLS_REFRESH_MS,
  });
}

/**
 * A service's side: TLS only, a client certificate from the CA required, and every call refused
 * (UNAUTHENTICATED) unless that certificate names the gateway.
 */
export function serviceServerCredentials(files: GrpcTlsFiles): ServerCredentials {
  const provider = watched(files);
  return experimental.createServerCredentialsWithInterceptors(experimental.createCertificateProviderServerCredentials(provider, provider, true), [requireGatewayPeer]);
}

/** The gateway's side: its own certificate, and the service's checked against the CA and the service's name. */
export function gatewayChannelCredentials(files: GrpcTlsFiles): ChannelCredentials {
  const provider = watched(files);
  return experimental.createCertificateProviderChannelCredentials(provider, provider);
}

/** Channel options that make the gateway check a service's certificate for its name, whatever address it dials. */
export function serviceNameCheck(serviceName: string): Record<string, string> {
  return { 'grpc.ssl_target_name_override': serviceName, 'grpc.default_authority': serviceName };
}
