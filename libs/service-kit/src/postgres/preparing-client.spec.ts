import { createPool } from './postgres-pool';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) throw new Error('preparing-client.spec.ts needs DATABASE_URL (the real PostgreSQL the test command starts)');

describe('PreparingClient (createPool)', () => {
  const pool = createPool(DATABASE_URL, 2);
  afterAll(() => pool.end());

  const preparedCount = async (client: { query: (q: string) => Promise<{ rows: { n: string }[] }> }) =>
    Number((await client.query(`select count(*)::text as n from pg_prepared_statements where name like 'ts_%'`)).rows[0].n);

  it('prepares a statement with parameters once per connection and reuses it', async () => {
    const client = await pool.connect();
    try {
      const before = await preparedCount(client);
      for (let i = 0; i < 3; i++) {
        const { rows } = await client.query<{ v: number }>('select $1::int + 1 as v', [i]);
        expect(rows[0].v).toBe(i + 1);
      }
      const config = await client.query<{ v: string }>({ text: 'select upper($1::text) as v', values: ['abc'] });
      expect(config.rows[0].v).toBe('ABC');
      expect(await preparedCount(client)).toBe(before + 2);
    } finally {
      client.release();
    }
  });

  it('leaves statements without parameters, and pool.query callers, working as before', async () => {
    expect((await pool.query<{ v: number }>('select 41 + 1 as v')).rows[0].v).toBe(42);
    expect((await pool.query<{ v: string }>('select $1::text as v', ['x'])).rows[0].v).toBe('x');
    await expect(pool.query('select $1::int as v', ['not a number'])).rejects.toThrow(/invalid input syntax/);
    // The failed statement does not break the next use of the same text.
    expect((await pool.query<{ v: number }>('select $1::int as v', [7])).rows[0].v).toBe(7);
  });

  it('sends array parameters intact: awkward text, numbers, nulls; dates and nested arrays through pg', async () => {
    const texts = ['a', 'say "hi"', 'C:\\path\\', '{a,b}', 'NULL', '', ' x ', 'line\nbreak', '✈ Überflug', null];
    const numbers = [1, -2, 9007199254740991, null];
    const dates = [new Date('2026-11-23T10:00:00.000Z'), null];
    const { rows } = await pool.query<{ t: (string | null)[]; n: (string | null)[]; d: (Date | null)[]; m: number[][] }>(
      'select $1::text[] as t, $2::bigint[]::text[] as n, $3::timestamptz[] as d, $4::int[] as m',
      [texts, numbers, dates, [[1, 2], [3, 4]]],
    );
    expect(rows[0].t).toEqual(texts);
    expect(rows[0].n).toEqual(numbers.map((n) => (n === null ? null : String(n))));
    expect(rows[0].d).toEqual(dates);
    expect(rows[0].m).toEqual([[1, 2], [3, 4]]);
  });

  it('plans every run for its actual values (a generic plan made bulk writes 2-3x slower)', async () => {
    expect((await pool.query<{ plan_cache_mode: string }>('show plan_cache_mode')).rows[0].plan_cache_mode).toBe('force_custom_plan');
  });

  it("plans each statement once per connection when asked ('once'), reusing that plan for other values", async () => {
    const once = createPool(DATABASE_URL, 1, 'once');
    try {
      const client = await once.connect();
      try {
        const plans = async () =>
          (await client.query<{ generic_plans: string }>(`select generic_plans::text from pg_prepared_statements where statement like '%ts_once_probe%'`)).rows[0]
            ?.generic_plans;
        for (const v of [1, 2, 3]) await client.query('select $1::int as ts_once_probe', [v]);
        expect(await plans()).toBe('3');
      } finally {
        client.release();
      }
    } finally {
      await once.end();
    }
  });
});
