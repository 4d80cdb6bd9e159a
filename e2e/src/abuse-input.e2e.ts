import fc from 'fast-check';
import { api, newServiceAccount, type TestAccount } from './support/accounts';
import { rawRequest } from './support/raw-request';
import { baseUrl } from './support/test-stack';

const raw = (method: string, path: string, headers: Record<string, string>, body?: string) => rawRequest({ method, path, headers, body });

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const oddEscapes = fc.constantFrom('%', '%%', '%zz', '%E0%A4%A', '%C0%AF', '%ED%A0%80', '%FF%FE', '%00', '%2e%2e%2f', '\\', '..', '/./', '%25', '\u202e', '\ufeff', '\0');

/** Text an attacker or a careless integrator might send: any code unit, lone surrogates, NUL, odd escapes, overlong. */
const hostileString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.tuple(fc.stringMatching(/^[a-z0-9]{0,4}$/), loneSurrogate).map(([text, half]) => text + half),
  fc.string({ unit: fc.oneof(loneSurrogate, fc.constant('\0'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), oddEscapes), maxLength: 12 }),
  fc.integer({ min: 51, max: 20_000 }).map((n) => 'x'.repeat(n)),
  oddEscapes,
);

/** Bytes of a path segment: each byte percent-encoded, or a hostile escape left as typed. */
const hostileSegment = fc.oneof(
  fc.uint8Array({ maxLength: 24 }).map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
  fc.string({ unit: fc.oneof(fc.constantFrom('a', '-', '_', '.', '~', ':', '@', '!', '$', '&', "'", '(', ')', '*', '+', ',', ';', '='), oddEscapes.filter((s) => /^[\x21-\x7e]*$/.test(s))), maxLength: 10 }),
);

type Schema = { $ref?: string; type?: string; properties?: Record<string, Schema>; items?: Schema; allOf?: Schema[]; oneOf?: Schema[]; anyOf?: Schema[] };

/** Any JSON value of roughly the schema's shape, with hostile strings and wrong types mixed in. */
function valueOf(schema: Schema | undefined, components: Record<string, Schema>, depth = 0): fc.Arbitrary<unknown> {
  if (schema?.$ref) return valueOf(components[schema.$ref.split('/').pop() as string], components, depth);
  const nested = schema?.allOf?.[0] ?? schema?.oneOf?.[0] ?? schema?.anyOf?.[0];
  if (nested) return valueOf(nested, components, depth);
  const wrongType = fc.oneof(fc.constant(null), fc.boolean(), fc.double(), fc.integer(), hostileString, fc.constant([]), fc.constant({}));
  if (depth > 3) return wrongType;
  if (schema?.type === 'object' || schema?.properties) {
    const props = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, valueOf(s, components, depth + 1)]));
    return fc.oneof({ weight: 5, arbitrary: fc.record(props, { requiredKeys: [] }) }, wrongType);
  }
  if (schema?.type === 'array') return fc.oneof({ weight: 5, arbitrary: fc.array(valueOf(schema.items, components, depth + 1), { maxLength: 3 }) }, wrongType);
  // Plausible text half the time, so a hostile value in one field meets valid ones in the others.
  if (schema?.type === 'string') return fc.oneof({ weight: 5, arbitrary: fc.stringMatching(/^[A-Z][A-Z0-9]{0,7}$/) }, { weight: 5, arbitrary: hostileString }, wrongType);
  return wrongType;
}

interface Operation {
  method: string;
  path: string;
  query: string[];
  body?: Schema;
}

function operationsOf(doc: any): Operation[] {
  return Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      query: ((op.parameters ?? []) as { in: string; name: string }[]).filter((p) => p.in === 'query').map((p) => p.name),
      body: op.requestBody?.content?.['application/json']?.schema as Schema | undefined,
    })),
  );
}

const noServerError = (op: string, status: number, text: string) => {
  if (status >= 500) throw new Error(`${op} answered ${status}: ${text.slice(0, 300)}`);
};

describe('no input yields 500 (property-based fuzz through the real gateway)', () => {
  let account: TestAccount;
  let operations: Operation[];
  let components: Record<string, Schema>;

  beforeAll(async () => {
    account = await newServiceAccount();
    const doc = (await (await fetch(`${baseUrl()}/openapi.json`)).json()) as any;
    operations = operationsOf(doc);
    components = doc.components?.schemas ?? {};
  });

  const authFor = (path: string) => `Bearer ${path.startsWith('/admin') ? process.env.ADMIN_TOKEN : account.token}`;

  it('answers a 4xx for any byte sequence in any path and query of every endpoint', async () => {
    expect(operations.length).toBeGreaterThan(20);
    for (const op of operations) {
      await fc.assert(
        fc.asyncProperty(fc.array(hostileSegment, { minLength: 1, maxLength: 3 }), hostileSegment, async (segments, query) => {
          let i = 0;
          const path = op.path.replace(/\{[^}]+\}/g, () => segments[i++ % segments.length]);
          const qs = op.query.length ? `?${op.query.map((name) => `${name}=${query}`).join('&')}` : `?${query}`;
          const res = await raw(op.method, path + qs, { Authorization: authFor(op.path) });
          noServerError(`${op.method} ${path}${qs}`, res.status, res.text);
        }),
        { numRuns: 25 },
      );
    }
    await fc.assert(
      fc.asyncProperty(fc.array(hostileSegment, { minLength: 1, maxLength: 5 }), async (segments) => {
        const res = await raw('GET', `/${segments.join('/')}`, { Authorization: authFor('/') });
        noServerError(`GET /${segments.join('/')}`, res.status, res.text);
        expect(res.status).toBeGreaterThanOrEqual(400);
      }),
      { numRuns: 200 },
    );
  });

  it('answers a 4xx for any JSON body of every endpoint, hostile strings in every field', async () => {
    for (const op of operations.filter((o) => o.body)) {
      const path = op.path.replace(/\{[^}]+\}/g, 'fuzz');
      await fc.assert(
        fc.asyncProperty(valueOf(op.body, components), async (body) => {
          const text = JSON.stringify(body) ?? 'null';
          const res = await raw(op.method, path, { Authorization: authFor(op.path), 'Content-Type': 'application/json' }, text);
          noServerError(`${op.method} ${path} ${text.slice(0, 200)}`, res.status, res.text);
        }),
        { numRuns: 40 },
      );
    }
  });

  it('answers 401 or 429 for any bytes in HTTP Basic credentials', async () => {
    await fc.assert(
      // Kept under Node's 16 KiB header limit: beyond it the server drops the connection (431) before any handler runs.
      fc.asyncProperty(fc.uint8Array({ maxLength: 40 }), hostileString.filter((s) => s.length < 4000), async (bytes, typed) => {
        for (const credentials of [Buffer.from(bytes), Buffer.from(`${typed}:${typed}`)]) {
          const res = await raw('POST', '/oauth/token', { Authorization: `Basic ${credentials.toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' }, 'grant_type=client_credentials');
          noServerError(`Basic ${credentials.toString('base64')}`, res.status, res.text);
          expect([401, 429]).toContain(res.status);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('refuses a lone surrogate in a string as invalid under its field, never stored altered', async () => {
    const fresh = await newServiceAccount();
    const res = await api(fresh, 'PUT', '/Tails', '{"tailId":"\\ud800","tailNumber":"N1"}');
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fieldErrors)).toEqual(['tailId']);
    const inNumber = await api(fresh, 'PUT', '/Tails', '{"tailId":"m-1","tailNumber":"N\\udc00"}');
    expect(inNumber.status).toBe(400);
    expect(Object.keys(inNumber.body.fieldErrors)).toEqual(['tailNumber']);
    expect((await api(fresh, 'GET', '/Tails')).body.items).toEqual([]);
  });

  it('answers 401 for malformed percent-escapes in HTTP Basic credentials', async () => {
    for (const credentials of ['%E0%A4%A:x', 'id:%', '%ZZ:%ZZ', 'a%ED%A0%80:b']) {
      const res = await api(null, 'POST', '/oauth/token', 'grant_type=client_credentials', {
        Authorization: `Basic ${Buffer.from(credentials).toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      });
      expect(res.status).toBe(401);
      expect(res.body.type).toMatch(/#unauthorized$/);
    }
  });
});
