import { TOPICS } from '../topics';
import type { TopicContract } from './kafka-topics';

/** Who may write and read a topic: the contract's Kafka principals ("Kafka security"). */
export interface TopicPrincipals {
  write: string[];
  /** Principals that read it, each with the consumer groups it may use. */
  read: { principal: string; groups: string }[];
}

/** The consumer groups of a named reader (`kafka-principals --reader NAME`). */
export const NAMED_READER_GROUPS = 'NAME-*';
const SHARED_READER = { principal: 'reader', groups: 'reader-*' };

/**
 * The principals of a topic. Beyond these, any named reader (`kafka-principals --reader NAME
 * --topic <topic>`) reads exactly the topics it was given, in its own groups; tools/kafka's ACLs
 * are checked against this (contract-acls.spec.ts).
 */
export function topicPrincipals(t: TopicContract): TopicPrincipals {
  if (t.tailsync === 'receive') return { write: ['product'], read: [{ principal: 'webhook-dispatcher', groups: t.groupId ?? '' }] };
  const write = [t.topic === TOPICS.tailEvents ? 'tail-sync' : 'webhook-dispatcher'];
  return { write, read: t.topic.startsWith('tailsync.') ? [SHARED_READER] : [] };
}
