import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..');

/**
 * The committed OpenAPI document under Redocly's recommended rules (redocly.yaml; the few findings
 * true of the API by design are listed, with why, in .redocly.lint-ignore.yaml): what integrators'
 * tooling and portals will complain about, caught here first.
 */
describe('docs/api/openapi.json under Redocly lint', () => {
  it('has no error and no warning', () => {
    const lint = spawnSync(process.execPath, [require.resolve('@redocly/cli/bin/cli.js'), 'lint', 'docs/api/openapi.json', '--format', 'summary'], {
      cwd: REPO, encoding: 'utf8', timeout: 120_000, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
    });
    const report = lint.stdout + lint.stderr;
    expect({ status: lint.status, report }).toEqual({ status: 0, report: expect.stringContaining('Your API description is valid') });
    // the summary's counts (not the banner about Node.js versions that may stand above them)
    expect(report).not.toMatch(/You have \d+ warning|^\s*(?:error|warning)\s+[\w.-]+: \d+/m);
  });
});
