/**
 * Waits until every broker serves the users and ACLs just set. A KRaft broker applies them from
 * the metadata log a moment after the controller commits them; meanwhile a client that reaches it
 * is refused ("invalid credentials") or sees none of its topics, and an app refuses to start on
 * that (seen in CI, a service copy exiting at start beside a fresh three-broker cluster).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { KafkaConnection } from '@tailsync/service-kit';
import { Kafka, logLevel, type SASLOptions } from 'kafkajs';
import { type Binding, bindingKey, bindingsIn, everyAclOf } from './acl-bindings';
import type { Credentials } from './kafka-clients-file';
import { createCluster } from './kafkajs-cluster';
import { ADMIN_CLIENT_TIMEOUTS } from './scram-credentials';

export interface AppliedPrincipals {
  /** Exactly the ACLs these users hold now. */
  usernames: string[];
  bindings: Binding[];
  /** The users whose credentials were set (each must authenticate on every broker). */
  users: Credentials[];
}

export async function awaitEveryBroker(admin: KafkaConnection, applied: AppliedPrincipals, timeoutMs = 60_000): Promise<void> {
  // A broker that does not answer is asked again next round, not waited on for kafkajs's 30 s.
  const kafka = new Kafka({ ...admin, clientId: 'tailsync-kafka-principals', logLevel: logLevel.NOTHING, ...ADMIN_CLIENT_TIMEOUTS, requestTimeout: 5_000, retry: { retries: 2 } });
  const client = kafka.admin();
  const cluster = createCluster(kafka);
  const wanted = new Set(applied.bindings.map(bindingKey));
  await Promise.all([client.connect(), cluster.connect()]);
  try {
    const { brokers } = await client.describeCluster();
    const deadline = Date.now() + timeoutMs;
    let behind = await brokersBehind();
    while (behind.length > 0) {
      if (Date.now() > deadline) throw new Error(`Kafka brokers still without the principals just set after ${timeoutMs / 1000} s: ${behind.join('; ')}`);
      await sleep(200);
      behind = await brokersBehind();
    }

    async function brokersBehind(): Promise<string[]> {
      await cluster.refreshMetadata();
      const found = await Promise.all(
        brokers.map(async ({ nodeId, host, port }) => `broker ${nodeId}: ${await whatIsMissing(nodeId, `${host}:${port}`).catch((e: Error) => `unreachable (${e.message})`)}`),
      );
      return found.filter((line) => !line.endsWith(': '));
    }
  } finally {
    await Promise.all([client.disconnect(), cluster.disconnect()]);
  }

  /** '' when the broker holds exactly the ACLs and takes every user's credentials. */
  async function whatIsMissing(nodeId: number, address: string): Promise<string> {
    const broker = await cluster.findBroker({ nodeId });
    const held = new Set((await Promise.all(applied.usernames.map((u) => broker.describeAcls(everyAclOf(u))))).flatMap((d) => bindingsIn(d).map(bindingKey)));
    const aclsDiffer = held.size !== wanted.size || [...wanted].some((k) => !held.has(k));
    const refused = (await Promise.all(applied.users.map(async (user) => ((await authenticates(admin, address, user)) ? [] : [user.username])))).flat();
    return [aclsDiffer ? 'ACLs not yet applied' : '', refused.length > 0 ? `refuses ${refused.join(', ')}` : ''].filter(Boolean).join(', ');
  }
}

/** One SCRAM handshake as the user with this broker alone. */
async function authenticates(admin: KafkaConnection, address: string, user: Credentials): Promise<boolean> {
  const kafka = new Kafka({
    ...admin,
    brokers: [address],
    // The users are set for both SCRAM mechanisms: the admin's own, when it signs in with one of them.
    sasl: { mechanism: admin.sasl?.mechanism === 'scram-sha-256' ? ('scram-sha-256' as const) : ('scram-sha-512' as const), ...user } as SASLOptions,
    clientId: 'tailsync-kafka-principals',
    logLevel: logLevel.NOTHING,
    ...ADMIN_CLIENT_TIMEOUTS,
    retry: { retries: 0 },
  });
  const probe = kafka.admin();
  try {
    await probe.connect();
    return true;
  } catch {
    return false;
  } finally {
    await probe.disconnect().catch(() => undefined);
  }
}
