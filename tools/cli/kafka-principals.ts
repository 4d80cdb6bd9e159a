/**
 * `npm run cli -- kafka-principals`: creates or updates, on any cluster, the contract's principals
 * (SCRAM users) and exactly their ACLs, and tailsync's topics when missing, as an admin principal.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { KAFKA_TOPICS } from '@tailsync/contracts';
import { describeKafkaConnection, kafkaAccessFailure, kafkaConnection, type KafkaConnection, replicationConfig, replicationSettings, topicReplication,
  type TopicReplication } from '@tailsync/service-kit';
import { contractAcls, DEFAULT_DISPATCHER_GROUP, kafkaAclsCommands } from '../kafka/contract-acls';
import { SERVICE_PRINCIPALS, type ServicePrincipal } from '../kafka/principals';
import { kafkaClientsPath, principalSettings, readKafkaClients, type KafkaClients } from '../kafka/kafka-clients-file';
import { applyKafkaPrincipals, type PrincipalsPlan } from '../kafka/kafka-principals';

// Not tools/stack's REPO_ROOT: the app image carries this command without the local stack.
const REPO_ROOT = join(__dirname, '..', '..');

export const KAFKA_PRINCIPALS_USAGE = `usage: npm run cli -- kafka-principals [--clients <kafka-clients.json>] [--acls-only] [--dispatcher-group <group>] [--replication-factor <n>] [--min-insync-replicas <n>] [--print]
  Creates tailsync's topics when missing, sets the SCRAM users tail-sync, webhook-dispatcher, product
  and reader, and gives each exactly the ACLs of the contract (removing any other of theirs).
  As:        the admin principal of KAFKA_BROKERS / KAFKA_SSL* / KAFKA_SASL_* when KAFKA_SASL_USERNAME
             is set, else the "admin" of the clients file (with KAFKA_SSL*)
  Users:     TAILSYNC_KAFKA_<PRINCIPAL>_USERNAME (default the principal's name) and
             TAILSYNC_KAFKA_<PRINCIPAL>_PASSWORD or _PASSWORD_FILE (PRINCIPAL: TAIL_SYNC,
             WEBHOOK_DISPATCHER, PRODUCT, READER), else the clients file's
  --clients             kafka-clients.json of a local stack (default .data/stack/kafka-clients.json when it exists)
  --acls-only           the provider manages the users (managed Kafka): topics and ACLs only, no passwords needed
  --dispatcher-group    the dispatcher's consumer group (default $WEBHOOK_EVENTS_GROUP_ID or ${DEFAULT_DISPATCHER_GROUP})
  --replication-factor  of the topics it creates (default $KAFKA_REPLICATION_FACTOR, else 3, or the broker count when smaller)
  --min-insync-replicas of the topics it creates (default $KAFKA_MIN_INSYNC_REPLICAS, else 2 on three brokers or more, else one fewer than the replicas, at least 1)
  --print               print the equivalent kafka-configs.sh, kafka-topics.sh and kafka-acls.sh lines; change nothing`;

const envName = (principal: ServicePrincipal, what: string) => `TAILSYNC_KAFKA_${principal.toUpperCase().replace(/-/g, '_')}_${what}`;

export async function kafkaPrincipalsCommand(argv: string[], out: (line: string) => void = console.log, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      clients: { type: 'string' },
      'acls-only': { type: 'boolean' },
      'dispatcher-group': { type: 'string' },
      'replication-factor': { type: 'string' },
      'min-insync-replicas': { type: 'string' },
      print: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    out(KAFKA_PRINCIPALS_USAGE);
    return 0;
  }
  const fail = (message: string, code = 2) => {
    process.stderr.write(`${message}\n`);
    return code;
  };
  let replication: Partial<TopicReplication>;
  try {
    // The flags over the environment, checked as the apps check the environment.
    replication = replicationSettings({
      KAFKA_REPLICATION_FACTOR: values['replication-factor'] ?? env.KAFKA_REPLICATION_FACTOR,
      KAFKA_MIN_INSYNC_REPLICAS: values['min-insync-replicas'] ?? env.KAFKA_MIN_INSYNC_REPLICAS,
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n(--replication-factor and --min-insync-replicas give them too)`);
  }
  const clientsFile = values.clients ?? (existsSync(kafkaClientsPath(join(REPO_ROOT, '.data', 'stack'))) ? kafkaClientsPath(join(REPO_ROOT, '.data', 'stack')) : undefined);
  let clients: KafkaClients | undefined;
  try {
    clients = clientsFile ? readKafkaClients(clientsFile) : undefined;
  } catch (error) {
    return fail(`--clients: ${(error as Error).message}`);
  }

  const principals = {} as PrincipalsPlan['principals'];
  const missing: string[] = [];
  for (const principal of SERVICE_PRINCIPALS) {
    const username = env[envName(principal, 'USERNAME')] || clients?.[principal].username || principal;
    const passwordFile = env[envName(principal, 'PASSWORD_FILE')];
    const password = passwordFile ? readFileSync(passwordFile, 'utf8').replace(/\r?\n$/, '') : env[envName(principal, 'PASSWORD')] || clients?.[principal].password;
    if (values['acls-only'] || values.print) principals[principal] = { username };
    else if (password) principals[principal] = { username, password };
    else missing.push(`${envName(principal, 'PASSWORD')} (or _PASSWORD_FILE)`);
  }
  const dispatcherGroup = values['dispatcher-group'] ?? env.WEBHOOK_EVENTS_GROUP_ID ?? DEFAULT_DISPATCHER_GROUP;
  if (values.print) {
    for (const line of printedCommands(principals, dispatcherGroup, replication)) out(line);
    return 0;
  }
  if (missing.length > 0) return fail(`kafka-principals: no password for ${missing.join(', ')}; give them, or --acls-only when the provider manages users`);

  let admin: KafkaConnection;
  try {
    admin = env.KAFKA_SASL_USERNAME || !clients
      ? kafkaConnection(env)
      : kafkaConnection({ KAFKA_SSL: env.KAFKA_SSL, KAFKA_SSL_CA_FILE: env.KAFKA_SSL_CA_FILE, ...principalSettings(clients, 'admin') });
  } catch (error) {
    return fail((error as Error).message);
  }
  try {
    const report = await applyKafkaPrincipals(admin, { principals, dispatcherGroup, replication });
    out(`kafka-principals on ${describeKafkaConnection(admin)}:`);
    out(`  topics created: ${report.topicsCreated.join(', ') || 'none (all present)'}`);
    out(`  SCRAM users set (SHA-512 and SHA-256): ${report.usersSet.join(', ') || 'none (--acls-only)'}`);
    out(`  ACLs: ${report.aclsAdded} added, ${report.aclsRemoved} removed (${contractAcls({ dispatcherGroup }).length} in the contract)`);
    return 0;
  } catch (error) {
    const denied = kafkaAccessFailure(error, admin);
    return fail(`kafka-principals on ${describeKafkaConnection(admin)} failed: ${(denied ?? (error as Error)).message}`, 1);
  }
}

/** What an operator who manages the cluster with Kafka's own tools runs instead. */
function printedCommands(principals: PrincipalsPlan['principals'], dispatcherGroup: string, replication: Partial<TopicReplication>): string[] {
  // For a cluster of three brokers or more unless told otherwise: the printout cannot ask the cluster.
  const wanted = topicReplication(Math.max(3, replication.replicationFactor ?? 3), replication);
  const usernames = Object.fromEntries(SERVICE_PRINCIPALS.map((p) => [p, principals[p].username])) as Record<ServicePrincipal, string>;
  return [
    '# admin.properties: the admin principal (security.protocol, sasl.mechanism, sasl.jaas.config, ssl.truststore.*)',
    '# Topics (skip those that exist):',
    ...KAFKA_TOPICS.map(
      (t) =>
        `kafka-topics.sh --bootstrap-server <bootstrap> --command-config admin.properties --create --if-not-exists --topic ${t.topic} ` +
        `--partitions ${t.numPartitions} --replication-factor ${wanted.replicationFactor}` +
        Object.entries({ ...t.config, ...replicationConfig(wanted) }).map(([k, v]) => ` --config ${k}=${v}`).join(''),
    ),
    '# Users (not on providers that manage them):',
    ...SERVICE_PRINCIPALS.map(
      (p) =>
        `kafka-configs.sh --bootstrap-server <bootstrap> --command-config admin.properties --alter --entity-type users --entity-name ${usernames[p]} ` +
        `--add-config 'SCRAM-SHA-512=[iterations=8192,password=<password of ${p}>],SCRAM-SHA-256=[iterations=8192,password=<password of ${p}>]'`,
    ),
    '# ACLs (nothing else for these principals; allow.everyone.if.no.acl.found=false on the brokers):',
    ...kafkaAclsCommands(contractAcls({ dispatcherGroup }), usernames),
  ];
}

// compose's kafka-init runs this file itself (`node tools/run.js tools/cli/kafka-principals.ts`):
// the image holds this command, not the whole CLI.
if (process.argv[1] === __filename) {
  kafkaPrincipalsCommand(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
