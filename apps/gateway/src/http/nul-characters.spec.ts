import { NUL_MESSAGE, nulInJson, nulInUrl } from './nul-characters';

const check = (value: unknown) => nulInJson(JSON.stringify(value), value);

describe('U+0000 in a request', () => {
  it('names the first string or key that holds it, by its path in the body', () => {
    expect(check({ tailId: 'a\0' })?.fieldErrors).toEqual({ tailId: [NUL_MESSAGE] });
    expect(check({ tails: [{ tailId: 'ok' }, { tailNumber: 'N\x001' }] })?.fieldErrors).toEqual({ 'tails[1].tailNumber': [NUL_MESSAGE] });
    expect(check({ payloadToEcho: { deep: [1, { ['k\0']: 1 }] } })?.fieldErrors).toEqual({ 'payloadToEcho.deep[1].k\0': [NUL_MESSAGE] });
    expect(check('\0')?.fieldErrors).toEqual({ body: [NUL_MESSAGE] });
    expect(check({ a: 'x\0' })?.status).toBe(400);
  });

  it('passes bodies without it, including the escaped text "\\u0000"', () => {
    expect(check({ tailId: 'x', n: 1, b: true, z: null, list: ['a', { k: 'v' }] })).toBeNull();
    expect(check({ tailId: 'x\\u0000' })).toBeNull();
    // The text has the escape but no value holds U+0000: only a walk can tell.
    expect(nulInJson('{"a":"\\\\u0000"}', { a: '\\u0000' })).toBeNull();
  });

  it('refuses an encoded U+0000 anywhere in the URL, in either case', () => {
    expect(nulInUrl('/Tails/a%00')?.generalErrors).toEqual(['The URL must not contain the character U+0000.']);
    expect(nulInUrl('/Tails?tailNumber=x%00y')).not.toBeNull();
    expect(nulInUrl('/Tails/%2500')).toBeNull();
    expect(nulInUrl('/Tails/a%20b')).toBeNull();
  });
});
