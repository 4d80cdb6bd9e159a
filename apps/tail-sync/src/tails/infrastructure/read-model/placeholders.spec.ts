import { Placeholders } from './placeholders';

describe('Placeholders', () => {
  it('numbers each parameter as it is added, with its cast, and lists the values in that order', () => {
    const values = new Placeholders();
    expect([values.add(['a'], 'text[]'), values.add(7), values.add([1, 2], 'bigint[]')]).toEqual(['$1::text[]', '$2', '$3::bigint[]']);
    expect(values.list).toEqual([['a'], 7, [1, 2]]);
  });
});
