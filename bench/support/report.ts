/** The markdown tables printed at the end of a run (and pasted into docs/performance.md). */
import type { Row } from './context';
import type { ProfileSummary } from './profile';

const fmt = (v: number | undefined, digits = 0) =>
  v === undefined || Number.isNaN(v) ? '–' : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });

const ms = (v: number | undefined) => (v === undefined ? '–' : v < 10 ? fmt(v, 2) : v < 100 ? fmt(v, 1) : fmt(v, 0));

export function resultsTable(rows: Row[]): string {
  const out = [
    '| ID | Workload | Throughput | p50 ms | p99 ms | Latency of | vs baseline | Target | Met |',
    '|---|---|---:|---:|---:|---|---|---|---|',
  ];
  for (const r of rows) {
    const base = r.baseline
      ? r.baseline.basis === 'throughput'
        ? `${fmt(r.baseline.ratio * 100, 1)} % of ${r.baseline.id}`
        : `p99 ${fmt(r.baseline.ratio, 1)}× ${r.baseline.id}`
      : '';
    out.push(
      `| ${r.id} | ${r.title} | ${r.throughput ? `${fmt(r.throughput.value)} ${r.throughput.unit}` : '–'} | ${ms(r.latencyMs?.p50)} | ${ms(r.latencyMs?.p99)} | ${r.latencyMs?.what ?? ''} | ${base} | ${r.target?.text ?? ''} | ${r.target ? (r.target.met ? 'yes' : `**no** (${fmt(r.target.attainment * 100)} %)`) : ''} |`,
    );
  }
  return out.join('\n');
}

export function cpuTable(rows: Row[]): string {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.cpu?.avg ?? {})))];
  const out = [
    `| ID | ${names.map((n) => `${n} %`).join(' | ')} | machine % (of ${rows.find((r) => r.cpu)?.cpu?.machine.capacity ?? '?'}) | other processes % |`,
    `|---|${names.map(() => '---:').join('|')}|---:|---:|`,
  ];
  for (const r of rows) {
    if (!r.cpu) continue;
    out.push(
      `| ${r.id} | ${names.map((n) => `${fmt(r.cpu?.avg[n])} (${fmt(r.cpu?.peak[n])})`).join(' | ')} | ${fmt(r.cpu.machine.avg)} (${fmt(r.cpu.machine.peak)}) | ${fmt(r.cpu.other)} |`,
    );
  }
  return out.join('\n');
}

/** CPU per operation (net of the stack at rest) and the throughput it allows on the whole machine. */
export function costTable(rows: Row[]): string {
  const costed = rows.filter((r) => r.cost);
  if (costed.length === 0) return '';
  const names = [...new Set(costed.flatMap((r) => Object.keys(r.cost?.msPerOp ?? {})))];
  const out = [
    `| ID | per | ${names.map((n) => `${n} ms`).join(' | ')} | stack ms | CPU-bound ceiling | measured | ceiling as a share of |`,
    `|---|---|${names.map(() => '---:').join('|')}|---:|---:|---:|---|`,
  ];
  const per = (unit: string) => ({ 'req/s': 'request', 'tails/s': 'tail', 'deliveries/s': 'delivery', 'cmd/s': 'command', 'calls/s': 'call' })[unit] ?? unit;
  for (const r of costed) {
    const c = r.cost as NonNullable<Row['cost']>;
    out.push(
      `| ${r.id} | ${per(r.throughput?.unit ?? '')} | ${names.map((n) => fmt(c.msPerOp[n], 3)).join(' | ')} | ${fmt(c.totalMsPerOp, 3)} | ${fmt(c.cpuBoundCeiling)} ${r.throughput?.unit} | ${fmt(r.throughput?.value)} ${r.throughput?.unit} | ${shares(r)} |`,
    );
  }
  return out.join('\n');
}

const shares = (r: Row) =>
  Object.entries(r.ceilingShares ?? {})
    .map(([base, share]) => `${base}: ${fmt(share * 100, 1)} %`)
    .join(', ');

export function notesList(rows: Row[]): string {
  return rows
    .filter((r) => r.notes && r.notes.length > 0)
    .map((r) => `- ${r.id}: ${r.notes?.join('; ')}`)
    .join('\n');
}

export function profileReport(summaries: ProfileSummary[], top = 12): string {
  const parts: string[] = [];
  for (const s of summaries) {
    parts.push(`#### ${s.process}: ${fmt(s.busyMs)} ms busy of ${fmt(s.windowMs)} ms sampled in the window`);
    parts.push('', '| self, by package | ms | % of busy |', '|---|---:|---:|');
    for (const e of s.selfByPackage.slice(0, 10)) parts.push(`| ${e.name} | ${fmt(e.ms)} | ${fmt(e.pct, 1)} |`);
    parts.push('', '| inclusive, by package (it and what it calls) | ms | % of busy |', '|---|---:|---:|');
    for (const e of s.inclusiveByPackage.slice(0, 10)) parts.push(`| ${e.name} | ${fmt(e.ms)} | ${fmt(e.pct, 1)} |`);
    parts.push('', '| self, by function | ms | % of busy |', '|---|---:|---:|');
    for (const e of s.selfByFunction.slice(0, top)) parts.push(`| \`${e.name}\` | ${fmt(e.ms)} | ${fmt(e.pct, 1)} |`);
    parts.push('', '| inclusive, by function | ms | % of busy |', '|---|---:|---:|');
    for (const e of s.inclusiveByFunction.slice(0, top)) parts.push(`| \`${e.name}\` | ${fmt(e.ms)} | ${fmt(e.pct, 1)} |`);
    parts.push('');
  }
  return parts.join('\n');
}
