import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { api, freshDomain, newServiceAccount } from './support/accounts';
import { appEnv, baseUrl } from './support/test-stack';

const ROOT = join(__dirname, '..', '..');
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'tools', 'run.js'), join(ROOT, 'tools', 'cli', 'main.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...appEnv(), BASE_URL: baseUrl() },
    encoding: 'utf8',
  });

describe('operator commands (npm run cli)', () => {
  it('rebuild-projections replays the event store into the same read model, online', async () => {
    const a = await newServiceAccount();
    await api(a, 'PUT', '/Tails/Bulk', { tails: Array.from({ length: 20 }, (_, i) => ({ tailId: `rb-${i}`, tailNumber: `NRB${i}` })) });
    await api(a, 'POST', '/Tails/Deactivate', { tailId: 'rb-3' });
    await api(a, 'POST', '/Tails/ChangeTailNumber', { tailId: 'rb-4', newTailNumber: 'NRB4-NEW' });
    const before = await api(a, 'GET', '/Tails?limit=100');

    const run = cli('rebuild-projections');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/rebuilt the tails read model from \d+ events/);

    const after = await api(a, 'GET', '/Tails?limit=100');
    expect(after.body).toEqual(before.body);
  });

  it('create-service-account wraps the admin API', async () => {
    const domain = freshDomain();
    const run = cli('create-service-account', '--domain', domain, '--name', 'From the CLI');
    expect(run.status).toBe(0);
    const created = JSON.parse(run.stdout);
    expect(created).toMatchObject({ domain, name: 'From the CLI', clientId: expect.any(String), clientSecret: expect.any(String) });
    const token = await api(null, 'POST', '/oauth/token', { grant_type: 'client_credentials', client_id: created.clientId, client_secret: created.clientSecret });
    expect(token.status).toBe(200);
  });
});
