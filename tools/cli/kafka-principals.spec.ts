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
});
