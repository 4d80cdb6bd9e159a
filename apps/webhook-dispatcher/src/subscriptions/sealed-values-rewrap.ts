import type { Pool } from 'pg';
import { SecretBoxError, type SecretBox } from '../sealing/secret-box';
import { signingKeySealContext } from './signing-key.store';

/** One column of sealed values, read and written a page at a time in key order. */
interface SealedColumn {
  /** What the report calls it. */
  name: string;
  table: string;
  column: string;
  /** The row's key, in the order pages follow. */
  key: readonly string[];
  /** What the value is sealed to (SecretBox's context), from the row's key. */
  context: (row: Record<string, string>) => string;
}

const SEALED_COLUMNS: readonly SealedColumn[] = [
  { name: 'shared secret', table: 'webhook_subscriptions', column: 'secret_sealed', key: ['domain'], context: (r) => r.domain },
  { name: 'previous shared secret', table: 'webhook_subscriptions', column: 'previous_secret_sealed', key: ['domain'], context: (r) => r.domain },
  { name: 'signing key', table: 'webhook_signing_keys', column: 'private_seed_sealed', key: ['domain', 'kid'], context: (r) => signingKeySealContext(r.domain, r.kid) },
];

const PAGE = 500;

/** A sealed value the keys held do not open: where it is (never what it is). */
export interface UnreadableValue {
  what: string;
  domain: string;
  kid?: string;
  reason: string;
}

export interface RewrapReport {
  /** The id of the key everything is now sealed under. */
  sealingKeyId: string;
  rewrapped: number;
  /** Values a save replaced while this ran (sealed anew by that save); a second run checks them. */
  changedMeanwhile: number;
  unreadable: UnreadableValue[];
}

/**
 * Seals again, under the sealing key (the first of `WEBHOOK_SECRET_KEY`), every shared secret and
 * signing key stored under another key or before key ids, so the older key can then be dropped.
 * Each value is replaced only if it is still the one read, so it runs beside live dispatchers.
 */
export async function rewrapSealedValues(pool: Pool, box: SecretBox): Promise<RewrapReport> {
  const report: RewrapReport = { sealingKeyId: box.sealingKeyId, rewrapped: 0, changedMeanwhile: 0, unreadable: [] };
  // Values already under the sealing key are left unread: a rerun costs one scan, not a decryption per value.
  const current = `v2.${box.sealingKeyId}.%`;
  for (const sealed of SEALED_COLUMNS) {
    const keys = sealed.key.join(', ');
    let after: string[] | null = null;
    for (;;) {
      const from: string = after === null ? '' : `and (${keys}) > (${sealed.key.map((_, i) => `$${i + 2}`).join(', ')})`;
      const { rows }: { rows: Record<string, string>[] } = await pool.query<Record<string, string>>(
        `select ${keys}, ${sealed.column} as value from ${sealed.table}
          where ${sealed.column} is not null and ${sealed.column} not like $1 ${from} order by ${keys} limit ${PAGE}`,
        [current, ...(after ?? [])],
      );
      for (const row of rows) await rewrapOne(pool, box, sealed, row, report);
      if (rows.length < PAGE) break;
      after = sealed.key.map((k) => rows[rows.length - 1][k]);
    }
  }
  return report;
}

async function rewrapOne(pool: Pool, box: SecretBox, sealed: SealedColumn, row: Record<string, string>, report: RewrapReport): Promise<void> {
  let value: string | null;
  try {
    value = box.rewrapped(row.value, sealed.context(row));
  } catch (error) {
    if (!(error instanceof SecretBoxError)) throw error;
    report.unreadable.push({ what: sealed.name, domain: row.domain, ...(row.kid === undefined ? {} : { kid: row.kid }), reason: error.message });
    return;
  }
  if (value === null) return;
  const where = sealed.key.map((k, i) => `${k} = $${i + 3}`).join(' and ');
  const { rowCount } = await pool.query(
    `update ${sealed.table} set ${sealed.column} = $1 where ${sealed.column} = $2 and ${where}`,
    [value, row.value, ...sealed.key.map((k) => row[k])],
  );
  if (rowCount === 1) report.rewrapped += 1;
  else report.changedMeanwhile += 1;
}
