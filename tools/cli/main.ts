/**
 * `npm run cli -- <command> [options]`: operator commands.
 * Each command is a module exporting `(argv) => Promise<exit code>`; add new ones to COMMANDS.
 */
import { createServiceAccountCommand } from './create-service-account';
import { databaseRolesCommand } from './database-roles';
import { grpcCertificatesCommand } from './grpc-certificates';
import { kafkaPrincipalsCommand } from './kafka-principals';
import { listenCommand } from './listen/listen-command';
import { migrateServicesCommand } from './migrate';
import { publishRiskAssessmentCommand } from './publish-risk-assessment';
import { rebuildProjectionsCommand } from './rebuild-projections';
import { rewrapSealedValuesCommand } from './rewrap-sealed-values';
import { serviceKeysCommand } from './service-keys';

type Command = { run: (argv: string[]) => Promise<number>; summary: string };

export const COMMANDS: Record<string, Command> = {
  'create-service-account': {
    run: (argv) => createServiceAccountCommand(argv),
    summary: 'create a service account (POST /admin/ServiceAccounts) and print its credentials',
  },
  migrate: {
    run: (argv) => migrateServicesCommand(argv),
    summary: "run the services' pending database migrations (they also run them at start)",
  },
  'rebuild-projections': {
    run: (argv) => rebuildProjectionsCommand(argv),
    summary: "rebuild tail-sync's read model from the event store",
  },
  'rewrap-sealed-values': {
    run: (argv) => rewrapSealedValuesCommand(argv),
    summary: "seal every stored webhook secret and signing key again under the dispatcher's first WEBHOOK_SECRET_KEY",
  },
  'kafka-principals': {
    run: (argv) => kafkaPrincipalsCommand(argv),
    summary: "create or update the Kafka principals and exactly the contract's ACLs (and tailsync's topics)",
  },
  'database-roles': {
    run: (argv) => databaseRolesCommand(argv),
    summary: 'create one PostgreSQL role per service, each owning only its own tables, none a superuser',
  },
  'grpc-certificates': {
    run: (argv) => grpcCertificatesCommand(argv),
    summary: "make the service network's CA and each app's certificate for mutual TLS on gRPC, where missing",
  },
  'service-keys': {
    run: (argv) => serviceKeysCommand(argv),
    summary: 'print a new key pair for the signed caller of service calls, as .env lines (compose)',
  },
  'publish-risk-assessment': {
    run: (argv) => publishRiskAssessmentCommand(argv),
    summary: 'publish Product.RiskAssessmentExecuted event(s) for a domain to Kafka',
  },
  listen: {
    run: (argv) => listenCommand(argv),
    summary: "forward your domain's webhook events, signed, to a local receiver (follows GET /WebhookSubscriptions/Events)",
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  return ['usage: npm run cli -- <command> [options]   (<command> --help for its options)', '', 'commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`)].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`unknown command: ${name}\n${usage()}\n`);
    return 2;
  }
  return command.run(rest);
}

// Run when started as the entry point (tools/run.js puts this file in argv[1]), not when imported.
if (process.argv[1] === __filename) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
