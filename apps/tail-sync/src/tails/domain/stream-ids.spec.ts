import {
  encodeStreamPart,
  mappedIdStreamId,
  tailIdOfStream,
  tailNumberStreamId,
  tailStreamId,
  TAIL_STREAM_PREFIX,
} from './stream-ids';

describe('stream ids', () => {
  it('names tail streams tail-<id>', () => {
    expect(tailStreamId(42)).toBe('tail-42');
    expect(tailIdOfStream('tail-42')).toBe(42);
    expect(tailIdOfStream('tailnumber-acme-N1')).toBeNull();
    expect(tailIdOfStream('tail-0')).toBeNull();
  });

  it('keys tail numbers trimmed and upper-cased per domain', () => {
    expect(tailNumberStreamId('acme', ' n123 ')).toBe('tailnumber-acme-N123');
    expect(tailNumberStreamId('acme', 'N123')).toBe(tailNumberStreamId('acme', 'n123'));
    expect(tailNumberStreamId('acme', 'N123')).not.toBe(tailNumberStreamId('other', 'N123'));
  });

  it('keys Mapped IDs exactly per domain and source', () => {
    expect(mappedIdStreamId('acme', 'client-a', 'M 1/ä')).toBe('mappedid-acme-client%2Da-M%201%2F%C3%A4');
    expect(mappedIdStreamId('acme', 'c', 'm')).not.toBe(mappedIdStreamId('acme', 'c', 'M'));
    expect(mappedIdStreamId('acme', 'c', ' m')).not.toBe(mappedIdStreamId('acme', 'c', 'm'));
  });

  it('never lets two different part tuples collide', () => {
    expect(mappedIdStreamId('a-b', 'c', 'd')).not.toBe(mappedIdStreamId('a', 'b-c', 'd'));
    expect(mappedIdStreamId('a', 'b', 'c-d')).not.toBe(mappedIdStreamId('a', 'b-c', 'd'));
    expect(tailNumberStreamId('a-b', 'c')).not.toBe(tailNumberStreamId('a', 'b-c'));
  });

  it('encodes separators and URI specials, round-trips with decodeURIComponent', () => {
    const raw = "a-b_c.d!e'f(g)h*i~j%k l/ü😀";
    const enc = encodeStreamPart(raw);
    expect(enc).not.toMatch(/[-_.!'()*~ /]/);
    expect(decodeURIComponent(enc)).toBe(raw);
  });

  it('escapes every character but letters and digits as percent-encoded UTF-8, upper case', () => {
    const reference = (raw: string) => [...Buffer.from(raw, 'utf8')].map((b) => (/[A-Za-z0-9]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
    const ascii = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)).join('');
    for (const raw of ['', 'N123AB', 'm-12-345', 'client-0123abcd', ascii, 'tail %2D', 'Überflug ✈', 'a😀b-c', '😀', 'x😀', 'acme.io_x~y']) {
      expect(encodeStreamPart(raw)).toBe(reference(raw));
    }
    expect(() => encodeStreamPart('a\uD800b')).toThrow(URIError);
  });

  it('reservation streams never fall under the tail stream prefix', () => {
    expect(tailNumberStreamId('acme', 'x').startsWith(TAIL_STREAM_PREFIX)).toBe(false);
    expect(mappedIdStreamId('acme', 'c', 'x').startsWith(TAIL_STREAM_PREFIX)).toBe(false);
  });
});
