import { kafkaPrincipalsCommand } from './kafka-principals';

const run = async (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const lines: string[] = [];
  const code = await kafkaPrincipalsCommand(argv, (line) => lines.push(line), env);
  return { code, lines };
};

describe('npm run cli -- kafka-principals', () => {
  it('--print gives the kafka-topics.sh, kafka-configs.sh and kafka-acls.sh lines, with the names and group given', async () => {
    const { code, lines } = await run(['--print', '--dispatcher-group', 'prod-events', '--replication-factor', '3'], {
      TAILSYNC_KAFKA_READER_USERNAME: 'team-x-reader',
    });
    expect(code).toBe(0);
    expect(lines).toContain(
      'kafka-topics.sh --bootstrap-server <bootstrap> --command-config admin.properties --create --if-not-exists --topic tailsync.tail-events --partitions 6 --replication-factor 3 --config retention.ms=-1 --config cleanup.policy=delete --config min.insync.replicas=2',
    );
    expect(lines).toContain('kafka-acls.sh --bootstrap-server <bootstrap> --command-config admin.properties --add --allow-principal User:webhook-dispatcher --operation Read --group prod-events');
    expect(lines).toContain('kafka-acls.sh --bootstrap-server <bootstrap> --command-config admin.properties --add --allow-principal User:team-x-reader --operation Read --topic tailsync. --resource-pattern-type prefixed');
    expect(lines.filter((l) => l.startsWith('kafka-configs.sh'))).toHaveLength(4);
    expect(lines.join('\n')).not.toMatch(/password=(?!<password of )/);
  });

  it('--reader NAME --print gives its user and exactly its ACLs: the topics named, the groups NAME-*', async () => {
    const { code, lines } = await run(['--reader', 'audit-log', '--topic', 'tailsync.tail-events', '--print']);
    expect(code).toBe(0);
    expect(lines.filter((l) => l.startsWith('kafka-acls.sh'))).toEqual([
      'kafka-acls.sh --bootstrap-server <bootstrap> --command-config admin.properties --add --allow-principal User:audit-log --operation Read --topic tailsync.tail-events',
      'kafka-acls.sh --bootstrap-server <bootstrap> --command-config admin.properties --add --allow-principal User:audit-log --operation Read --group audit-log- --resource-pattern-type prefixed',
    ]);
    expect(lines.join('\n')).not.toMatch(/password=(?!<password of )/);
  });

  it('--reader refuses a contract principal, a topic prefix or unknown topic, and no topic, before touching the broker', async () => {
    expect((await run(['--reader', 'reader', '--topic', 'tailsync.tail-events', '--print'])).code).toBe(2);
    expect((await run(['--reader', 'audit-log', '--topic', 'tailsync.', '--print'])).code).toBe(2);
    expect((await run(['--reader', 'audit-log', '--print'])).code).toBe(2);
    expect((await run(['--reader', 'Audit Log', '--topic', 'tailsync.tail-events', '--print'])).code).toBe(2);
    expect((await run(['--reader', 'audit-log', '--topic', 'tailsync.tail-events'])).code).toBe(2); // no password, no --acls-only
  });
});
