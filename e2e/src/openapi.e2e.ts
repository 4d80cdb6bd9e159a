import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newServiceAccount } from './support/accounts';
import { baseUrl } from './support/test-stack';

const CONFIG = join(__dirname, '..', 'schemathesis', 'schemathesis.toml');

/** Runs the schemathesis CLI to its end; its whole report is the failure message. */
function schemathesis(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const bin = process.env.SCHEMATHESIS_BIN;
  if (!bin) throw new Error('SCHEMATHESIS_BIN is not set: run the suite with `npm test`, which installs schemathesis');
  return new Promise((resolve, reject) => {
    // Its working directory gets a `.schemathesis` cache: keep it out of the checkout.
    const cwd = process.env.TAILSYNC_TEST_DATA ?? tmpdir();
    const child = spawn(bin, ['--no-color', '--config-file', CONFIG, ...args], { cwd, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('OpenAPI document, checked from outside by schemathesis', () => {
  it('every operation answers as /openapi.json says: no 5xx, only documented statuses, bodies matching their schemas, invalid input refused, auth enforced', async () => {
    const account = await newServiceAccount();
    const document = (await (await fetch(`${baseUrl()}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(document.paths).flatMap((ops) => Object.keys(ops));
    const { code, output } = await schemathesis(['run', `${baseUrl()}/openapi.json`], {
      TAILSYNC_TOKEN: account.token,
      TAILSYNC_ADMIN_TOKEN: process.env.ADMIN_TOKEN as string,
    });

    const tested = /Tested:\s+(\d+)/.exec(output);
    const cases = /(\d+) generated, (\d+) passed/.exec(output);
    if (code !== 0 || !tested || !cases) throw new Error(`schemathesis exited with ${code}:\n${output}`);
    // Not a vacuous pass: every operation ran, with many generated requests, all passing.
    expect(Number(tested[1])).toBe(operations.length);
    expect(Number(cases[1])).toBeGreaterThan(500);
    expect(cases[2]).toBe(cases[1]);
  }, 300_000);
});
