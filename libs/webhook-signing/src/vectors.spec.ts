import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyStandardWebhook } from './standard-webhooks';
import { verifyWebhookRequest } from './verify';

/** The shared test vectors: the dispatcher's signer made them; the Python package reads the same files. */
const VECTORS_DIR = join(__dirname, '..', 'vectors');
const files = readdirSync(VECTORS_DIR).filter((f) => f.endsWith('.json')).sort();

interface Vector {
  name: string;
  secrets?: string[];
  publicKeys?: { keys: Record<string, string>[] };
  now: number;
  options: { testCalls: 'refuse' | 'accept' };
  headers: Record<string, string>;
  body: string;
  expect: { token: Record<string, unknown>; standardWebhooks: Record<string, unknown> };
}

const cases = files.flatMap((file) =>
  (JSON.parse(readFileSync(join(VECTORS_DIR, file), 'utf8')).vectors as Vector[]).map((v) => [`${file}: ${v.name}`, v] as const),
);

describe('the receiver on the shared test vectors', () => {
  it('finds the vector files', () => {
    expect(files).toEqual(expect.arrayContaining(['ed25519.json', 'events.json', 'expiry.json', 'rotation.json', 'tampering.json', 'test-calls.json']));
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  it.each(cases)('%s', (_name, v) => {
    const now = new Date(v.now * 1000);
    const authorization = Object.entries(v.headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
    const keys = v.publicKeys ? { publicKeys: v.publicKeys as { keys: { kty: string }[] } } : { secret: v.secrets! };
    const token = verifyWebhookRequest({ authorizationHeader: authorization, rawBody: Buffer.from(v.body, 'utf8'), ...keys, now, testCalls: v.options.testCalls });
    expect(token.ok ? { ok: true } : { ok: false, step: token.step, code: token.code }).toEqual(v.expect.token);
    const standard = verifyStandardWebhook({ headers: v.headers, rawBody: v.body, ...keys, now, testCalls: v.options.testCalls });
    expect(standard.ok ? { ok: true } : { ok: false, code: standard.code }).toEqual(v.expect.standardWebhooks);
    if (token.ok) expect(token.payload).toEqual(JSON.parse(v.body));
  });
});
