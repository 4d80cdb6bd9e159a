import { KAFKA_TOPICS, topicPrincipals } from '@tailsync/contracts';
import { contractAcls, kafkaAclsCommands, namedReaderAcls } from './contract-acls';

const usernames = { 'tail-sync': 'tail-sync', 'webhook-dispatcher': 'webhook-dispatcher', product: 'product', reader: 'reader' };
const rights = (group?: string) => contractAcls({ dispatcherGroup: group }).map((r) => `${r.principal} ${r.operation} ${r.resourceType} ${r.name}${r.prefixed ? '*' : ''}`);

describe("the contract's Kafka ACLs", () => {
  it('give each principal exactly its rights: no create, no delete, no cluster rights', () => {
    expect(rights()).toEqual([
      'tail-sync WRITE TOPIC tailsync.tail-events',
      'webhook-dispatcher READ TOPIC product.risk-assessment-executed',
      'webhook-dispatcher READ GROUP webhook-dispatcher-events',
      'webhook-dispatcher READ GROUP webhook-dispatcher-events-backfill-*',
      'webhook-dispatcher WRITE TOPIC product.risk-assessment-executed.dlq',
      'webhook-dispatcher WRITE TOPIC tailsync.webhook-subscriptions',
      'product WRITE TOPIC product.risk-assessment-executed',
      'reader READ TOPIC tailsync.*',
      'reader READ GROUP reader-*',
    ]);
  });

  it("follow the dispatcher's consumer group", () => {
    expect(rights('tailsync-prod-events')).toContain('webhook-dispatcher READ GROUP tailsync-prod-events');
    expect(rights('tailsync-prod-events')).toContain('webhook-dispatcher READ GROUP tailsync-prod-events-backfill-*');
  });

  it('print as kafka-acls.sh lines with the usernames given', () => {
    const lines = kafkaAclsCommands(contractAcls(), { ...usernames, reader: 'team-x-reader' });
    expect(lines).toHaveLength(contractAcls().length);
    expect(lines[0]).toBe('kafka-acls.sh --bootstrap-server <bootstrap> --command-config admin.properties --add --allow-principal User:tail-sync --operation Write --topic tailsync.tail-events');
    expect(lines.at(-1)).toBe('kafka-acls.sh --bootstrap-server <bootstrap> --command-config admin.properties --add --allow-principal User:team-x-reader --operation Read --group reader- --resource-pattern-type prefixed');
  });

  it('agree with what the AsyncAPI document says of each topic: who writes it, who reads it', () => {
    const covers = (name: string, prefixed: boolean, topic: string) => (prefixed ? topic.startsWith(name) : topic === name);
    for (const topic of KAFKA_TOPICS) {
      const granted = (operation: string) => [...new Set(contractAcls().filter((r) => r.resourceType === 'TOPIC' && r.operation === operation && covers(r.name, r.prefixed, topic.topic)).map((r) => r.principal))];
      const said = topicPrincipals(topic);
      expect({ topic: topic.topic, write: granted('WRITE'), read: granted('READ') }).toEqual({ topic: topic.topic, write: said.write, read: said.read.map((r) => r.principal) });
    }
  });

  it("give a named reader its topics by whole name and its own groups, nothing else", () => {
    expect(namedReaderAcls('audit-log', ['tailsync.tail-events']).map((r) => `${r.principal} ${r.operation} ${r.resourceType} ${r.name}${r.prefixed ? '*' : ''}`)).toEqual([
      'audit-log READ TOPIC tailsync.tail-events',
      'audit-log READ GROUP audit-log-*',
    ]);
  });
});
