import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export { scripts, WebhookReceiver, type ReceivedRequest, type ReceiverScript } from '@tailsync/webhooks/testing';

export interface JoseVerdict {
  ok: boolean;
  error?: string;
  protectedHeader?: Record<string, unknown>;
  payload?: Record<string, unknown>;
  /** Lowercase hex SHA-256 of the body, computed by the verifying process. */
  bodySha256?: string;
}

// Runs in a separate Node process as an ES module: `jose` ships ES modules only, and this keeps the
// check entirely outside the code under test (no shared helpers, no @nestjs/jwt, no jsonwebtoken).
const JOSE_SCRIPT = `
import { jwtVerify } from 'jose';
import { createHash } from 'node:crypto';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const items = JSON.parse(input);
const out = [];
for (const { token, secret, bodyBase64 } of items) {
  try {
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'], issuer: 'tailsync' });
    const bodySha256 = createHash('sha256').update(Buffer.from(bodyBase64, 'base64')).digest('hex');
    out.push({ ok: true, payload, protectedHeader, bodySha256 });
  } catch (error) {
    out.push({ ok: false, error: String(error && error.code || error) });
  }
}
process.stdout.write(JSON.stringify(out));
`;

/**
 * Verifies callback tokens with `jose` (an independent JWT implementation the project does not
 * otherwise use): HS256 with the UTF-8 bytes of the shared secret, `iss` = tailsync, not expired.
 */
export function verifyWithJose(items: { token: string; secret: string; body: Buffer }[]): JoseVerdict[] {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', JOSE_SCRIPT], {
    cwd: join(__dirname, '..', '..', '..'),
    input: JSON.stringify(items.map((i) => ({ token: i.token, secret: i.secret, bodyBase64: i.body.toString('base64') }))),
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (result.status !== 0) throw new Error(`jose verifier failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as JoseVerdict[];
}

/** The token of a callback request (`Authorization: Token <JWT>`). */
export const tokenOf = (authorization: string | string[] | undefined): string => {
  const match = /^Token (\S+)$/.exec(String(authorization ?? ''));
  if (!match) throw new Error(`not a Token authorization: ${String(authorization).slice(0, 20)}`);
  return match[1];
};
