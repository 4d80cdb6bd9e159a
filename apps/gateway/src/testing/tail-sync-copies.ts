/**
 * What the gateway's channel specs share: tail-sync copies as real gRPC servers (the contract's
 * `.proto`) that answer, never answer, or answer late, and a steady stream of writes through a
 * ServiceChannel, timed as a gateway's requests are.
 */
import { loadPackageDefinition, Server, ServerCredentials, type ServiceDefinition, type ServiceError } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { PROTO_FILES, PROTO_LOADER_OPTIONS, PROTO_ROOT, type wire } from '@tailsync/contracts';
import { join } from 'node:path';
import type { ServiceChannel } from '../services/infrastructure/service-channel';

export type CreateOrMapHandler = (call: unknown, reply: (e: Partial<ServiceError> | null, r?: object) => void) => void;
export const answersNoOutcomes: CreateOrMapHandler = (_call, reply) => reply(null, { outcomes: { outcomes: [] } });

/**
 * A tail-sync copy whose CreateOrMap answers no outcomes, or never answers (`() => undefined`),
 * as one cut off from its database does until the deadline; `others` serve other methods.
 */
export async function startCopy(port: number, CreateOrMap: CreateOrMapHandler = answersNoOutcomes, others: Record<string, CreateOrMapHandler> = {}): Promise<Server> {
  const definition = loadSync(join(PROTO_ROOT, PROTO_FILES.tailSync), { ...PROTO_LOADER_OPTIONS, includeDirs: [PROTO_ROOT] });
  const service = (loadPackageDefinition(definition) as any).tailsync.v1.TailSync.service as ServiceDefinition;
  const server = new Server();
  server.addService(service, { CreateOrMap, ...others });
  await new Promise<void>((resolve, reject) => server.bindAsync(`127.0.0.1:${port}`, ServerCredentials.createInsecure(), (e) => (e ? reject(e) : resolve())));
  return server;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A handler that never answers while `silent()` says so, as a copy cut off does, and answers (and tells `onAnswer`) once it does not. */
export const answersUnless = (silent: () => boolean, onAnswer: () => void = () => undefined): CreateOrMapHandler => (call, reply) => {
  if (silent()) return;
  onAnswer();
  answersNoOutcomes(call, reply);
};

/** One write of `writeSteadily`: when it started (ms from the first), whether it was answered, and how long it took. */
export interface TimedWrite {
  at: number;
  ok: boolean;
  ms: number;
}

/** A write every 100 ms for `forMs`, each with a budget of `budgetMs`, as a gateway's requests come. */
export async function writeSteadily(channel: ServiceChannel<wire.TailSyncDefinition>, forMs: number, budgetMs = 1_000): Promise<TimedWrite[]> {
  const started = Date.now();
  const calls: Promise<TimedWrite>[] = [];
  for (let i = 0; Date.now() - started < forMs; i++) {
    const at = Date.now() - started;
    const caller = { domain: 'example.org', source: 'client', role: 'tenant' as const, requestId: `r-${i}`, deadline: Date.now() + budgetMs };
    calls.push(channel.call('CreateOrMap', caller, { tails: [] }).then(() => true, () => false).then((ok) => ({ at, ok, ms: Date.now() - started - at })));
    await sleep(100);
  }
  return Promise.all(calls);
}
