import { loadPackageDefinition, Server, ServerCredentials, type ServiceDefinition } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { PROTO_FILES, PROTO_LOADER_OPTIONS, PROTO_ROOT, type wire } from '@tailsync/contracts';
import { CallerTokenSigner } from '@tailsync/service-kit';
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { ServiceChannel } from './service-channel';
import { TAIL_SYNC_SERVICE } from './tail-sync.client';
import { freePort } from '@tailsync/service-kit/testing';

/** A tail-sync copy (real gRPC server, the contract's `.proto`) whose CreateOrMap answers no outcomes. */
async function startCopy(port: number): Promise<Server> {
  const definition = loadSync(join(PROTO_ROOT, PROTO_FILES.tailSync), { ...PROTO_LOADER_OPTIONS, includeDirs: [PROTO_ROOT] });
  const service = (loadPackageDefinition(definition) as any).tailsync.v1.TailSync.service as ServiceDefinition;
  const server = new Server();
  server.addService(service, { CreateOrMap: (_call: unknown, reply: (e: null, r: object) => void) => reply(null, { outcomes: { outcomes: [] } }) });
  await new Promise<void>((resolve, reject) => server.bindAsync(`127.0.0.1:${port}`, ServerCredentials.createInsecure(), (e) => (e ? reject(e) : resolve())));
  return server;
}

describe('ServiceChannel (real gRPC)', () => {
  const signer = new CallerTokenSigner(generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());

  it('a write made while no copy is up waits for one within its deadline, instead of failing at once (503)', async () => {
    const port = await freePort();
    const channel = new ServiceChannel<wire.TailSyncDefinition>({ ...TAIL_SYNC_SERVICE, target: `ipv4:127.0.0.1:${port}` }, signer);
    let copy: Server | undefined;
    try {
      const started = Date.now();
      // The only copy is down (a restart): the channel's connection attempt is refused first.
      const answered = channel.call('CreateOrMap', { domain: 'example.org', source: 'client', role: 'tenant', requestId: 'r-1', deadline: Date.now() + 8_000 }, { tails: [] });
      await new Promise((r) => setTimeout(r, 1_000));
      copy = await startCopy(port);
      await expect(answered).resolves.toMatchObject({ outcomes: { outcomes: [] } });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    } finally {
      channel.close();
      copy?.forceShutdown();
    }
  });
});
