/**
 * The principals of the contract ("Kafka security") and the only rights each has, as data: the
 * kafka-principals command applies them with kafkajs, and prints them as `kafka-acls.sh` lines.
 */
import { backfillGroupPrefix, TOPICS, WEBHOOK_EVENT_TYPES } from '@tailsync/contracts';
import type { ServicePrincipal } from './principals';

export type AclOperation = 'READ' | 'WRITE' | 'DESCRIBE';
export interface AclRule {
  /** A contract principal, or a named reader's name (`kafka-principals --reader NAME`). */
  principal: string;
  resourceType: 'TOPIC' | 'GROUP';
  /** The resource's name, or its prefix when `prefixed`. */
  name: string;
  prefixed: boolean;
  operation: AclOperation;
}

export const DEFAULT_DISPATCHER_GROUP = 'webhook-dispatcher-events';
/** The groups the `reader` principal may use: any whose name starts with this. */
export const READER_GROUP_PREFIX = 'reader-';
/** Every topic tailsync publishes starts with this; `reader` may read them all. */
export const TAILSYNC_TOPIC_PREFIX = 'tailsync.';

/**
 * The rights of each service principal. READ and WRITE imply DESCRIBE in Kafka's authorizer, so
 * metadata, offsets and lag need nothing more; nobody but `admin` may create or delete anything.
 */
export function contractAcls(options: { dispatcherGroup?: string } = {}): AclRule[] {
  const topic = (principal: ServicePrincipal, name: string, operation: AclOperation, prefixed = false): AclRule => ({ principal, resourceType: 'TOPIC', name, prefixed, operation });
  const group = (principal: ServicePrincipal, name: string, prefixed = false): AclRule => ({ principal, resourceType: 'GROUP', name, prefixed, operation: 'READ' });
  return [
    topic('tail-sync', TOPICS.tailEvents, 'WRITE'),
    ...WEBHOOK_EVENT_TYPES.map((type) => topic('webhook-dispatcher', type.input.topic, 'READ')),
    group('webhook-dispatcher', options.dispatcherGroup ?? DEFAULT_DISPATCHER_GROUP),
    group('webhook-dispatcher', backfillGroupPrefix(options.dispatcherGroup ?? DEFAULT_DISPATCHER_GROUP), true),
    ...WEBHOOK_EVENT_TYPES.map((type) => topic('webhook-dispatcher', type.deadLetters.topic, 'WRITE')),
    topic('webhook-dispatcher', TOPICS.webhookSubscriptions, 'WRITE'),
    ...WEBHOOK_EVENT_TYPES.map((type) => topic('product', type.input.topic, 'WRITE')),
    topic('reader', TAILSYNC_TOPIC_PREFIX, 'READ', true),
    group('reader', READER_GROUP_PREFIX, true),
  ];
}

/** A named reader's name: a Kafka user name that is none of the contract's principals. */
export const READER_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * The rights of a named reader (`kafka-principals --reader NAME`): READ on each topic given, by
 * its whole name, and on the groups `NAME-*` only, so it can neither read what it was not given
 * nor join, reset or read the offsets of another principal's groups.
 */
export function namedReaderAcls(name: string, topics: string[]): AclRule[] {
  return [
    ...topics.map((topic): AclRule => ({ principal: name, resourceType: 'TOPIC', name: topic, prefixed: false, operation: 'READ' })),
    { principal: name, resourceType: 'GROUP', name: `${name}-`, prefixed: true, operation: 'READ' },
  ];
}

/** `kafka-acls.sh` lines that grant the same rights, for operators who manage ACLs themselves. */
export function kafkaAclsCommands(rules: AclRule[], usernames: Record<string, string>, commandConfig = 'admin.properties', bootstrap = '<bootstrap>'): string[] {
  return rules.map(
    (r) =>
      `kafka-acls.sh --bootstrap-server ${bootstrap} --command-config ${commandConfig} --add --allow-principal User:${usernames[r.principal]} ` +
      `--operation ${r.operation === 'READ' ? 'Read' : r.operation === 'WRITE' ? 'Write' : 'Describe'} ` +
      `--${r.resourceType === 'TOPIC' ? 'topic' : 'group'} ${r.name}${r.prefixed ? ' --resource-pattern-type prefixed' : ''}`,
  );
}
