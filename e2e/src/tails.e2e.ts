import { api, newServiceAccount, TestAccount } from './support/accounts';

const tail = (tailId: string, tailNumber: string, extra: Record<string, unknown> = {}) => ({ tailId, tailNumber, ...extra });

describe('tails: create or map (PUT /Tails)', () => {
  let a: TestAccount;
  beforeAll(async () => {
    a = await newServiceAccount();
  });

  it('creates a tail: 201, Location, the bulk entry shape', async () => {
    const res = await api(a, 'PUT', '/Tails', tail('m-1', 'N100AA', { registrationNumber: 'REG1', countryCode: 'US', passengerSeating: 180 }));
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe('/Tails/m-1');
    expect(res.body).toEqual({ operationId: 'm-1', isValid: true, tailId: expect.any(Number), wasCreated: true, newSourceMappingAdded: false });
    expect(res.body.tailId).toBeGreaterThan(0);
  });

  it('takes no action when the Mapped ID already maps a tail of the caller (200)', async () => {
    const first = await api(a, 'PUT', '/Tails', tail('m-2', 'N200AA'));
    const again = await api(a, 'PUT', '/Tails', tail('m-2', 'N200AA'));
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ operationId: 'm-2', isValid: true, tailId: first.body.tailId, wasCreated: false, newSourceMappingAdded: false });
  });

  it('adds a second source\'s mapping to the tail holding the number (case-insensitive, trimmed)', async () => {
    const b = await newServiceAccount(a.domain, 'second source');
    const created = await api(a, 'PUT', '/Tails', tail('m-3', 'N300AA'));
    const mapped = await api(b, 'PUT', '/Tails', tail('other-3', '  n300aa '));
    expect(mapped.status).toBe(200);
    expect(mapped.body).toMatchObject({ tailId: created.body.tailId, wasCreated: false, newSourceMappingAdded: true });
    const view = await api(b, 'GET', '/Tails/other-3');
    expect(view.body.mappings).toEqual(
      expect.arrayContaining([{ source: a.clientId, mappedId: 'm-3' }, { source: b.clientId, mappedId: 'other-3' }]),
    );
    expect(view.body.mappedId).toBe('other-3');
  });

  it('refuses a second Mapped ID of the same source for one tail (400 under tailId)', async () => {
    await api(a, 'PUT', '/Tails', tail('m-4', 'N400AA'));
    const res = await api(a, 'PUT', '/Tails', tail('m-4-bis', 'N400AA'));
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors.tailId).toHaveLength(1);
  });

  it('validates with the contract\'s messages; never a 500', async () => {
    const cases: [unknown, string][] = [
      [tail('v-1', ''), 'tailNumber'],
      [{ tailId: 'v-2' }, 'tailNumber'],
      [tail('v-3', 'X'.repeat(21)), 'tailNumber'],
      [tail('v-4', 'N1', { registrationNumber: 'R'.repeat(51) }), 'registrationNumber'],
      [tail('v-5', 'N1', { countryCode: 'USA' }), 'countryCode'],
      [tail('v-6', 'N1', { passengerSeating: 1001 }), 'passengerSeating'],
      [tail('v-7', 'N1', { passengerSeating: 1.5 }), 'passengerSeating'],
      [tail('v-8', 'N1', { passengerSeating: '12' }), 'passengerSeating'],
      [tail('v-9', 'N1', { unknownField: 1 }), 'unknownField'],
      [{ tailId: 5, tailNumber: 'N1' }, 'tailId'],
      [tail('x'.repeat(51), 'N1'), 'tailId'],
      [{ tailId: 'v-10', tailNumber: 123 }, 'tailNumber'],
    ];
    for (const [body, field] of cases) {
      const res = await api(a, 'PUT', '/Tails', body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body).toMatchObject({ status: 400, isValid: false, title: expect.any(String), type: expect.stringMatching(/\/docs\/errors#validation-errors$/) });
      expect(Object.keys(res.body.fieldErrors)).toContain(field);
      expect(res.body.detail).toBe(Object.values(res.body.fieldErrors as Record<string, string[]>)[0][0]);
    }
    const empty = await api(a, 'PUT', '/Tails', tail('v-11', ''));
    expect(empty.body.fieldErrors.tailNumber).toEqual(['Tail number is required.']);
  });

  it('answers malformed JSON and an undecodable URL with 400, a non-JSON body with 415, and a huge body with 413', async () => {
    const malformed = await api(a, 'PUT', '/Tails', '{"tailId": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.detail).toBe('The request body is not valid JSON.');
    const badUrl = await api(a, 'GET', '/Tails/%FF');
    expect(badUrl.status).toBe(400);
    expect(badUrl.headers.get('content-type')).toContain('application/problem+json');
    expect(badUrl.headers.get('x-api-version')).toBeTruthy();
    expect((await api(a, 'PUT', '/Tails', 'tailId=x', { 'Content-Type': 'text/plain' })).status).toBe(415);
    const huge = await api(a, 'PUT', '/Tails/Bulk', { tails: [tail('h', 'x'.repeat(3_000_000))] });
    expect(huge.status).toBe(413);
    expect(huge.body.type).toMatch(/#payload-too-large$/);
  });

  it('refuses U+0000 in a body or the URL with a 400 problem naming where it is, and stores nothing (PostgreSQL cannot hold it)', async () => {
    const nul = '\u0000';
    const single = await api(a, 'PUT', '/Tails', tail(`nul-1${nul}`, 'N0NUL1'));
    expect(single.status).toBe(400);
    expect(single.body.fieldErrors).toEqual({ tailId: ['Text must not contain the character U+0000.'] });
    const property = await api(a, 'PUT', '/Tails', tail('nul-2', 'N0NUL2', { registrationNumber: `R${nul}` }));
    expect(property.body.fieldErrors).toEqual({ registrationNumber: ['Text must not contain the character U+0000.'] });
    const bulk = await api(a, 'PUT', '/Tails/Bulk', { tails: [tail('nul-3', 'N0NUL3'), tail('nul-4', `N${nul}4`)] });
    expect(bulk.status).toBe(400);
    expect(bulk.body.fieldErrors).toEqual({ 'tails[1].tailNumber': ['Text must not contain the character U+0000.'] });
    for (const path of ['/Tails/nul-1%00', '/Tails/nul-1%00/History', '/Tails?tailNumber=N0NUL1%00']) {
      const res = await api(a, 'GET', path);
      expect([path, res.status, res.headers.get('content-type')]).toEqual([path, 400, expect.stringContaining('application/problem+json')]);
      expect(res.body.generalErrors).toEqual(['The URL must not contain the character U+0000.']);
    }
    // Nothing of the refused calls was written; the text "\u0000" (a backslash, not U+0000) is ordinary.
    expect((await api(a, 'GET', '/Tails?tailNumber=N0NUL3')).body.items).toEqual([]);
    expect((await api(a, 'GET', '/Tails/nul-2')).status).toBe(404);
    expect((await api(a, 'PUT', '/Tails', tail('nul-5\\u0000', 'N0NUL5'))).status).toBe(201);
  });

  it('creates exactly one tail for N identical concurrent PUTs', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => api(a, 'PUT', '/Tails', tail('race-1', 'NRACE1'))));
    expect(results.map((r) => r.status).sort()).toEqual([...Array(19).fill(200), 201]);
    expect(new Set(results.map((r) => r.body.tailId)).size).toBe(1);
    expect(results.filter((r) => r.body.wasCreated)).toHaveLength(1);
  });

  it('keeps one tail per number under concurrent creates with different Mapped IDs of different sources', async () => {
    const accounts = await Promise.all(Array.from({ length: 8 }, (_, i) => newServiceAccount(a.domain, `src ${i}`)));
    const results = await Promise.all(accounts.map((acc, i) => api(acc, 'PUT', '/Tails', tail(`race2-${i}`, 'NRACE2'))));
    expect(results.filter((r) => r.body.wasCreated)).toHaveLength(1);
    expect(results.filter((r) => r.body.newSourceMappingAdded)).toHaveLength(7);
    expect(new Set(results.map((r) => r.body.tailId)).size).toBe(1);
  });
});

describe('tails: bulk (PUT /Tails/Bulk)', () => {
  let a: TestAccount;
  beforeAll(async () => {
    a = await newServiceAccount();
  });

  it('applies entries in order and independently, mixing valid and invalid entries, status 200', async () => {
    const res = await api(a, 'PUT', '/Tails/Bulk', {
      tails: [tail('b-1', 'NB1'), tail('b-2', ''), tail('b-1', 'NB1'), tail('b-3', 'nb1'), tail('b-4', 'NB4'), 'not an object', { tailNumber: 'NB5' }],
    });
    expect(res.status).toBe(200);
    const ops = res.body.operations;
    expect(ops).toHaveLength(7);
    expect(ops[0]).toEqual({ operationId: 'b-1', isValid: true, tailId: expect.any(Number), wasCreated: true, newSourceMappingAdded: false });
    expect(ops[1]).toMatchObject({ operationId: 'b-2', isValid: false });
    expect(ops[1].validation).toMatchObject({
      isValid: false,
      fieldErrors: { tailNumber: ['Tail number is required.'] },
      detail: 'Tail number is required.',
      type: expect.stringMatching(/#validation-errors$/),
      instance: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: expect.any(String),
      generalErrors: [],
    });
    expect(Object.keys(ops[1]).sort()).toEqual(['isValid', 'operationId', 'validation']);
    // A later entry sees an earlier one of the same call.
    expect(ops[2]).toMatchObject({ operationId: 'b-1', isValid: true, tailId: ops[0].tailId, wasCreated: false, newSourceMappingAdded: false });
    // Same source, same tail, another Mapped ID: fails under tailId.
    expect(ops[3]).toMatchObject({ operationId: 'b-3', isValid: false });
    expect(ops[3].validation.fieldErrors.tailId).toHaveLength(1);
    expect(ops[4]).toMatchObject({ operationId: 'b-4', isValid: true, wasCreated: true });
    expect(ops[5]).toMatchObject({ operationId: '', isValid: false });
    expect(ops[6]).toMatchObject({ operationId: '', isValid: false });
  });

  it('returns 200 { operations: [] } for an empty list', async () => {
    const res = await api(a, 'PUT', '/Tails/Bulk', { tails: [] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ operations: [] });
  });

  it('takes 1,000 tails and refuses 1,001 whole', async () => {
    const many = (n: number, p: string) => Array.from({ length: n }, (_, i) => tail(`${p}-${i}`, `${p}${i}`));
    const ok = await api(a, 'PUT', '/Tails/Bulk', { tails: many(1000, 'K') });
    expect(ok.status).toBe(200);
    expect(ok.body.operations.filter((o: { wasCreated: boolean }) => o.wasCreated)).toHaveLength(1000);
    const tooMany = await api(a, 'PUT', '/Tails/Bulk', { tails: many(1001, 'L') });
    expect(tooMany.status).toBe(400);
    const list = await api(a, 'GET', '/Tails?tailNumber=L0');
    expect(list.body.items).toEqual([]);
  });

  it('refuses a body without a tails array', async () => {
    expect((await api(a, 'PUT', '/Tails/Bulk', {})).status).toBe(400);
    expect((await api(a, 'PUT', '/Tails/Bulk', { tails: 'x' })).status).toBe(400);
  });
});

describe('tails: state changes, reads and history', () => {
  let a: TestAccount;
  beforeAll(async () => {
    a = await newServiceAccount();
    await api(a, 'PUT', '/Tails', tail('s-1', 'NS1', { icaoTypeName: 'B738' }));
    await api(a, 'PUT', '/Tails', tail('s-2', 'NS2'));
  });

  it('deactivates an active tail, 409 when already inactive, reactivates, 409 when already active', async () => {
    const off = await api(a, 'POST', '/Tails/Deactivate', { tailId: 's-1' });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ mappedId: 's-1', status: 'inactive', tailNumber: 'NS1', icaoTypeName: 'B738' });
    const again = await api(a, 'POST', '/Tails/Deactivate', { tailId: 's-1' });
    expect(again.status).toBe(409);
    expect(again.body.type).toMatch(/#conflict$/);
    const on = await api(a, 'POST', '/Tails/Reactivate', { tailId: 's-1' });
    expect(on.status).toBe(200);
    expect(on.body.status).toBe('active');
    expect((await api(a, 'POST', '/Tails/Reactivate', { tailId: 's-1' })).status).toBe(409);
  });

  it('answers 404 problems for an unknown Mapped ID', async () => {
    for (const path of ['/Tails/Deactivate', '/Tails/Reactivate']) {
      const res = await api(a, 'POST', path, { tailId: 'nope' });
      expect(res.status).toBe(404);
      expect(res.body.type).toMatch(/#not-found$/);
    }
    expect((await api(a, 'POST', '/Tails/ChangeTailNumber', { tailId: 'nope', newTailNumber: 'X' })).status).toBe(404);
    expect((await api(a, 'GET', '/Tails/nope')).status).toBe(404);
    expect((await api(a, 'GET', '/Tails/nope/History')).status).toBe(404);
  });

  it('changes the tail number; same number is a no-op; a number held by another tail is 409', async () => {
    const changed = await api(a, 'POST', '/Tails/ChangeTailNumber', { tailId: 's-2', newTailNumber: 'NS2-NEW-NUMBER-LONGER-THAN-20' });
    expect(changed.status).toBe(200);
    expect(changed.body.tailNumber).toBe('NS2-NEW-NUMBER-LONGER-THAN-20');
    const version = changed.body.version;
    const same = await api(a, 'POST', '/Tails/ChangeTailNumber', { tailId: 's-2', newTailNumber: 'NS2-NEW-NUMBER-LONGER-THAN-20' });
    expect(same.status).toBe(200);
    expect(same.body.version).toBe(version);
    const taken = await api(a, 'POST', '/Tails/ChangeTailNumber', { tailId: 's-2', newTailNumber: 'ns1' });
    expect(taken.status).toBe(409);
    // The old number is free again.
    const reuse = await api(a, 'PUT', '/Tails', tail('s-3', 'NS2'));
    expect(reuse.status).toBe(201);
    expect((await api(a, 'POST', '/Tails/ChangeTailNumber', { tailId: 's-2', newTailNumber: '' })).status).toBe(400);
  });

  it('reads one tail in the contract\'s view shape', async () => {
    const res = await api(a, 'GET', '/Tails/s-1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tailId: expect.any(Number),
      mappedId: 's-1',
      tailNumber: 'NS1',
      registrationNumber: null,
      icaoTypeName: 'B738',
      vendorTypeName: null,
      countryCode: null,
      passengerSeating: null,
      status: 'active',
      mappings: [{ source: a.clientId, mappedId: 's-1' }],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      version: 3,
    });
  });

  it('lists with filters and cursor pagination', async () => {
    const page1 = await api(a, 'GET', '/Tails?limit=2');
    expect(page1.status).toBe(200);
    expect(page1.body.items).toHaveLength(2);
    expect(page1.body.nextCursor).toEqual(expect.any(String));
    const page2 = await api(a, 'GET', `/Tails?limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`);
    expect(page2.body.items.length).toBeGreaterThanOrEqual(1);
    const ids = [...page1.body.items, ...page2.body.items].map((t: { tailId: number }) => t.tailId);
    expect(new Set(ids).size).toBe(ids.length);
    const byNumber = await api(a, 'GET', '/Tails?tailNumber=ns1');
    expect(byNumber.body.items.map((t: { mappedId: string }) => t.mappedId)).toEqual(['s-1']);
    expect((await api(a, 'GET', '/Tails?status=bogus')).status).toBe(400);
    expect((await api(a, 'GET', '/Tails?limit=0')).status).toBe(400);
    const badCursor = await api(a, 'GET', '/Tails?cursor=not-a-cursor');
    expect(badCursor.status).toBe(400);
    expect(Object.keys(badCursor.body.fieldErrors)).toEqual(['cursor']);
  });

  it('gives the tail\'s history oldest first', async () => {
    const res = await api(a, 'GET', '/Tails/s-1/History');
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { type: string }) => i.type)).toEqual(['TailCreated', 'TailDeactivated', 'TailReactivated']);
    expect(res.body.items[0]).toMatchObject({ eventId: expect.any(String), occurredAt: expect.any(String), version: 1, source: a.clientId });
    expect(res.body.items[0].data).toMatchObject({ tailNumber: 'NS1', mappedId: 's-1' });
  });
});

describe('tails: domain isolation', () => {
  it('never shows or changes another domain\'s tails (404, never data)', async () => {
    const a = await newServiceAccount();
    const b = await newServiceAccount();
    await api(a, 'PUT', '/Tails', tail('iso-1', 'NISO'));
    expect((await api(b, 'GET', '/Tails/iso-1')).status).toBe(404);
    expect((await api(b, 'POST', '/Tails/Deactivate', { tailId: 'iso-1' })).status).toBe(404);
    expect((await api(b, 'GET', '/Tails/iso-1/History')).status).toBe(404);
    expect((await api(b, 'GET', '/Tails')).body.items).toEqual([]);
    // The same number is free in another domain.
    expect((await api(b, 'PUT', '/Tails', tail('iso-1', 'NISO'))).status).toBe(201);
  });
});
