import { contractAcls, kafkaAclsCommands } from './contract-acls';

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
});
