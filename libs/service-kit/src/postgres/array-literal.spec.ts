// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prepareValue } = require('pg/lib/utils') as { prepareValue(value: unknown): unknown };
import { arrayLiteral } from './array-literal';

describe('arrayLiteral', () => {
  it.each([
    ['plain strings', ['a', 'b', 'tail-1042']],
    ['quotes and backslashes', ['say "hi"', 'C:\\path\\', '\\"', '"', '\\']],
    ['braces, commas, spaces, NULL as text', ['{a,b}', ' x ', 'NULL', 'null', '', ',']],
    ['control characters and unicode', ['line\nbreak\ttab', '✈ Überflug', '\u0001', '😀']],
    ['nulls and undefined', [null, 'x', undefined, null]],
    ['numbers', [0, -1, 1.5, 1e21, 2 ** 53, -0, 42]],
    ['booleans and bigints', [true, false, 10n ** 20n]],
    ['an empty array', []],
  ])('is what pg sends for %s', (_name, values) => {
    expect(arrayLiteral(values)).toBe(prepareValue(values));
  });

  it.each([
    ['nested arrays', [['a'], ['b']]],
    ['dates', [new Date(0)]],
    ['buffers', [Buffer.from('x')]],
    ['objects', [{ a: 1 }]],
  ])('leaves %s to pg', (_name, values) => {
    expect(arrayLiteral(values)).toBeUndefined();
  });
});
