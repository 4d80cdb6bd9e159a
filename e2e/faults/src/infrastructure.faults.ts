/**
 * The partition faults (app-partitions.ts), then the broker faults (kafka-brokers.ts), on one stack
 * of three brokers and two copies of each app on the runner's PostgreSQL: started once for the
 * seven faults rather than once for each group. Each fault leaves the stack whole (its cuts
 * healed, its brokers restarted; a broker fault first waits for every replica in sync), so the
 * next one starts from a stack as good as new.
 */
import { appPartitionFaults } from './app-partitions';
import { kafkaBrokerFaults } from './kafka-brokers';
import { type FaultStack, PROMTOOL_BUILT, startFaultStack } from './support';

let stack: FaultStack;

beforeAll(...PROMTOOL_BUILT);

beforeAll(async () => {
  stack = await startFaultStack({ name: 'infrastructure' });
}, 300_000);

afterAll(async () => {
  await stack?.stop();
}, 120_000);

describe('one copy of each app partitioned', () => appPartitionFaults(() => stack));

describe('brokers failing', () => kafkaBrokerFaults(() => stack));
