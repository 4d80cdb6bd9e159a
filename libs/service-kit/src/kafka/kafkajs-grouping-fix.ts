/**
 * kafkajs 2.2.4 (the last release) groups a send's messages by partition with
 * `Object.assign(result, { [partition]: [...current, message] })`: a new array for every message,
 * copying every message of its partition before it, so a send of n messages over p partitions
 * copies ~n²/2p references. The relay sends up to a thousand messages at a time over six
 * partitions: under parallel bulk calls this function made 11 % of tail-sync's allocations (a
 * sampling heap profile) and ~2 % of its CPU (docs/performance.md).
 *
 * This module, once imported, puts a one-pass grouping (the same result: partitions in the same
 * order, each partition's messages in send order) in kafkajs's require-cache entry. kafkajs's
 * `producer/sendMessages` keeps the function it loaded, and it is loaded with kafkajs itself, so
 * this must be imported before `kafkajs` is: it is the first export of `@tailsync/service-kit`,
 * and every app imports that before anything that loads kafkajs.
 */
import type { Message, PartitionerArgs, PartitionMetadata } from 'kafkajs';
import { replaceModule } from './replace-module';

export interface GroupingInput {
  topic: string;
  partitionMetadata: PartitionMetadata[];
  messages: Message[];
  partitioner: (args: PartitionerArgs) => number;
}

const GROUPING_MODULE = require.resolve('kafkajs/src/producer/groupMessagesPerPartition');
const SEND_MESSAGES_MODULE = require.resolve('kafkajs/src/producer/sendMessages');

/** kafkajs's `groupMessagesPerPartition`, in one pass. */
export function groupMessagesPerPartition({ topic, partitionMetadata, messages, partitioner }: GroupingInput): Record<number, Message[]> {
  const result: Record<number, Message[]> = {};
  if (partitionMetadata.length === 0) return result;
  for (const message of messages) {
    const partition = partitioner({ topic, partitionMetadata, message });
    const list = result[partition];
    if (list) list.push(message);
    else result[partition] = [message];
  }
  return result;
}

function install(): boolean {
  if (require.cache[GROUPING_MODULE]?.exports === groupMessagesPerPartition) return true;
  // Too late once kafkajs's sender has loaded the original.
  if (require.cache[SEND_MESSAGES_MODULE]) return false;
  return replaceModule(GROUPING_MODULE, groupMessagesPerPartition);
}

/** true when kafkajs's producers group messages with {@link groupMessagesPerPartition}. */
export const kafkajsGroupingFixed = install();
