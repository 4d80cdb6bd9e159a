/**
 * Brings a cluster to the contract's principals, as its `admin` principal: tailsync's topics
 * (created when missing), the service principals' SCRAM users (unless the provider manages users)
 * and exactly the ACLs contract-acls.ts lists for them; rights they hold beyond those are removed.
 */
import { KAFKA_TOPICS } from '@tailsync/contracts';
import { ensureTopics, type KafkaConnection, type TopicReplication } from '@tailsync/service-kit';
import { AclPermissionTypes, AclResourceTypes, Kafka, logLevel, ResourcePatternTypes, AclOperationTypes, type Admin } from 'kafkajs';
import { type Binding, bindingKey, bindingsIn, everyAclOf } from './acl-bindings';
import { type AclRule, contractAcls, namedReaderAcls } from './contract-acls';
import { SERVICE_PRINCIPALS, type ServicePrincipal } from './principals';
import type { Credentials } from './kafka-clients-file';
import { awaitEveryBroker } from './every-broker-caught-up';
import { ADMIN_CLIENT_TIMEOUTS, upsertScramUsers } from './scram-credentials';

export interface PrincipalsPlan {
  /** The service principals' usernames, with their passwords when the users are to be set. */
  principals: Record<ServicePrincipal, Credentials | { username: string; password?: undefined }>;
  dispatcherGroup?: string;
  /** Of the topics created here; default: topicReplication()'s for the cluster's size (3 and 2 on three brokers or more). */
  replication?: Partial<TopicReplication>;
}

export interface PrincipalsReport {
  topicsCreated: string[];
  usersSet: string[];
  aclsAdded: number;
  aclsRemoved: number;
}

export async function applyKafkaPrincipals(admin: KafkaConnection, plan: PrincipalsPlan): Promise<PrincipalsReport> {
  const kafka = new Kafka({ ...admin, clientId: 'tailsync-kafka-principals', logLevel: logLevel.NOTHING, ...ADMIN_CLIENT_TIMEOUTS, retry: { retries: 5, initialRetryTime: 200 } });
  const client = kafka.admin();
  await client.connect();
  try {
    const topicsCreated = await createMissingTopics(client, admin, plan.replication);
    const users = SERVICE_PRINCIPALS.map((p) => plan.principals[p]).filter((c): c is Credentials => c.password !== undefined);
    if (users.length > 0) await upsertScramUsers(admin, users.map((u) => ({ name: u.username, password: u.password })));
    const wanted = contractAcls({ dispatcherGroup: plan.dispatcherGroup }).map((r) => binding(r, plan.principals[r.principal as ServicePrincipal].username));
    const usernames = SERVICE_PRINCIPALS.map((p) => plan.principals[p].username);
    const { added, removed } = await reconcileAcls(client, wanted, usernames);
    await awaitEveryBroker(admin, { usernames, bindings: wanted, users });
    return { topicsCreated, usersSet: users.map((u) => u.username), aclsAdded: added, aclsRemoved: removed };
  } finally {
    await client.disconnect();
  }
}

/** A named reader to set: its name (the Kafka user), the topics it reads, its password unless the provider manages users. */
export interface NamedReaderPlan {
  name: string;
  topics: string[];
  password?: string;
}

/**
 * Makes or updates a named reader (`kafka-principals --reader NAME`): its SCRAM user when a password
 * is given, and exactly namedReaderAcls' rights (any other of its ACLs removed). Nothing else changes.
 */
export async function applyNamedReader(admin: KafkaConnection, plan: NamedReaderPlan): Promise<PrincipalsReport> {
  const kafka = new Kafka({ ...admin, clientId: 'tailsync-kafka-principals', logLevel: logLevel.NOTHING, ...ADMIN_CLIENT_TIMEOUTS, retry: { retries: 5, initialRetryTime: 200 } });
  const client = kafka.admin();
  await client.connect();
  try {
    if (plan.password !== undefined) await upsertScramUsers(admin, [{ name: plan.name, password: plan.password }]);
    const wanted = namedReaderAcls(plan.name, plan.topics).map((r) => binding(r, plan.name));
    const { added, removed } = await reconcileAcls(client, wanted, [plan.name]);
    await awaitEveryBroker(admin, { usernames: [plan.name], bindings: wanted, users: plan.password === undefined ? [] : [{ username: plan.name, password: plan.password }] });
    return { topicsCreated: [], usersSet: plan.password === undefined ? [] : [plan.name], aclsAdded: added, aclsRemoved: removed };
  } finally {
    await client.disconnect();
  }
}

/** The contract's topics that are missing, made as the apps make theirs (ensureTopics: waits for every leader). */
async function createMissingTopics(client: Admin, admin: KafkaConnection, replication: Partial<TopicReplication> = {}): Promise<string[]> {
  const existing = new Set(await client.listTopics());
  const missing = KAFKA_TOPICS.filter((t) => !existing.has(t.topic));
  if (missing.length > 0) await ensureTopics(admin, missing, replication);
  return missing.map((t) => t.topic);
}

function binding(rule: AclRule, username: string): Binding {
  return {
    resourceType: rule.resourceType === 'TOPIC' ? AclResourceTypes.TOPIC : AclResourceTypes.GROUP,
    resourceName: rule.name,
    resourcePatternType: rule.prefixed ? ResourcePatternTypes.PREFIXED : ResourcePatternTypes.LITERAL,
    principal: `User:${username}`,
    host: '*',
    operation: AclOperationTypes[rule.operation],
    permissionType: AclPermissionTypes.ALLOW,
  };
}

/** Adds the wanted bindings and removes every other one of the users named. */
async function reconcileAcls(client: Admin, bindings: Binding[], usernames: string[]): Promise<{ added: number; removed: number }> {
  const wanted = new Map(bindings.map((b) => [bindingKey(b), b]));
  const present = new Map<string, Binding>();
  for (const username of usernames) {
    const described = await client.describeAcls(everyAclOf(username) as unknown as Parameters<Admin['describeAcls']>[0]);
    for (const b of bindingsIn(described)) present.set(bindingKey(b), b);
  }
  const toAdd = [...wanted].filter(([k]) => !present.has(k)).map(([, b]) => b);
  const toRemove = [...present].filter(([k]) => !wanted.has(k)).map(([, b]) => b);
  if (toAdd.length > 0) await client.createAcls({ acl: toAdd });
  if (toRemove.length > 0) await client.deleteAcls({ filters: toRemove });
  return { added: toAdd.length, removed: toRemove.length };
}
