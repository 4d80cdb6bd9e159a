import { LONE_SURROGATE_MESSAGE, loneSurrogateInJson } from './lone-surrogates';

const check = (value: unknown) => loneSurrogateInJson(JSON.stringify(value), value);

describe('a lone UTF-16 surrogate in a JSON body', () => {
  it('names the first string or key that holds one, by its path in the body', () => {
    expect(check({ tailId: '\ud800', tailNumber: 'N1' })?.fieldErrors).toEqual({ tailId: [LONE_SURROGATE_MESSAGE] });
    expect(check({ tails: [{ tailId: 'ok' }, { tailNumber: 'N\udc001' }] })?.fieldErrors).toEqual({ 'tails[1].tailNumber': [LONE_SURROGATE_MESSAGE] });
    expect(check({ payloadToEcho: { ['k\udbff']: 1 } })?.fieldErrors).toEqual({ 'payloadToEcho.k\udbff': [LONE_SURROGATE_MESSAGE] });
    expect(check('a\ud83d')?.fieldErrors).toEqual({ body: [LONE_SURROGATE_MESSAGE] });
    expect(check({ a: 'x\udfff' })?.status).toBe(400);
  });

  it('passes whole pairs, escaped or not, and text without escapes', () => {
    expect(check({ tailNumber: 'N1 ✈ 😀' })).toBeNull();
    expect(loneSurrogateInJson('{"a":"\\ud83d\\ude00"}', { a: '😀' })).toBeNull();
    expect(loneSurrogateInJson('{"a":"\\\\ud800"}', { a: '\\ud800' })).toBeNull();
  });
});
