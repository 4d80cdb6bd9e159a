import { parseArgs } from 'node:util';
import { stackEnv } from './stack-env';

/** Wraps `POST /admin/ServiceAccounts`: prints the clientId and the one-time clientSecret. */
export async function createServiceAccountCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { domain: { type: 'string' }, name: { type: 'string' }, 'base-url': { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help || !values.domain || !values.name) {
    console.log('usage: npm run cli -- create-service-account --domain acme --name "Acme EFB" [--base-url http://localhost:3000]');
    return values.help ? 0 : 2;
  }
  const env = stackEnv();
  if (!env.ADMIN_TOKEN) {
    process.stderr.write('ADMIN_TOKEN is not set and the local stack has not generated one yet (start it with npm start)\n');
    return 2;
  }
  const res = await fetch(`${values['base-url'] ?? env.BASE_URL}/admin/ServiceAccounts`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${env.ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ domain: values.domain, name: values.name }),
  });
  const body = await res.text();
  if (res.status !== 201) {
    process.stderr.write(`${res.status}: ${body}\n`);
    return 1;
  }
  console.log(JSON.stringify(JSON.parse(body), null, 2));
  return 0;
}
