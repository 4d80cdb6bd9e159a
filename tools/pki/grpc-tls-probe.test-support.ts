/**
 * A gRPC server and client with the apps' own mutual-TLS code (libs/service-kit), on loopback:
 * to check that certificate files work as the gateway and a service use them.
 */
import { Client, Metadata, Server, type ServiceError, status } from '@grpc/grpc-js';
import { gatewayChannelCredentials, type GrpcTlsFiles, serviceNameCheck, serviceServerCredentials } from '@tailsync/service-kit';

const PATH = '/tailsync.test.Echo/Say';
const identity = (b: Buffer) => b;

/** Runs `use` with a server holding a service's files on a free port, then stops it. */
export async function withGrpcServer<T>(files: GrpcTlsFiles, use: (port: number) => Promise<T>): Promise<T> {
  const server = new Server();
  server.addService(
    { Say: { path: PATH, requestStream: false, responseStream: false, requestSerialize: identity, requestDeserialize: identity, responseSerialize: identity, responseDeserialize: identity } },
    { Say: (_call: unknown, done: (e: null, r: Buffer) => void) => done(null, Buffer.from('pong')) },
  );
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', serviceServerCredentials(files), (e, p) => (e ? reject(e) : resolve(p))));
  try {
    return await use(port);
  } finally {
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  }
}

/** `answered`, or the status of a call made as the gateway makes one: with `files`, checking the server for `serviceName`. */
export function ping(port: number, files: GrpcTlsFiles, serviceName: string): Promise<string> {
  const client = new Client(`ipv4:127.0.0.1:${port}`, gatewayChannelCredentials(files), serviceNameCheck(serviceName));
  return new Promise((resolve) => {
    client.makeUnaryRequest(PATH, identity, identity, Buffer.from('ping'), new Metadata(), { deadline: Date.now() + 5_000 }, (error: ServiceError | null) => {
      client.close();
      // The details say why (a refused certificate, a handshake that timed out), which the status alone does not.
      if (error) console.log(`[grpc-tls-probe] a call checking for ${serviceName}: ${status[error.code]} (${error.details})`);
      resolve(error ? status[error.code] : 'answered');
    });
  });
}
