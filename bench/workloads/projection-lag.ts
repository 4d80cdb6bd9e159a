/**
 * W5 projection lag: time from a command's success (the 201 of PUT /Tails, as the client sees it)
 * until its row is in the read model (`rm_tails` joined with `rm_tail_mappings`, the tables
 * GET /Tails/{mappedId} reads), polled with `pg` on a connection of its own.
 */
import * as http from 'node:http';
import { Client } from 'pg';
import { benchDomain, newAccount } from '../support/api';
import { BenchContext, Row, target } from '../support/context';
import { nowMs, summarize } from '../support/stats';
import { tailBody } from './tails';

const LOOPS = 4;

export const READ_MODEL_QUERY =
  'select t.version from rm_tail_mappings m join rm_tails t on t.domain = m.domain and t.tail_id = m.tail_id where m.domain = $1 and m.source = $2 and m.mapped_id = $3';

export async function runW5(ctx: BenchContext): Promise<Row> {
  const { baseUrl, adminToken, databaseUrl } = ctx.stack;
  if (!databaseUrl) throw new Error('W5 needs DATABASE_URL (the read model is polled directly)');
  const account = await newAccount(baseUrl, adminToken, benchDomain('w5'));
  const durationS = Math.max(3, Math.round(ctx.durationS / 2));
  const agent = new http.Agent({ keepAlive: true, maxSockets: LOOPS });
  const clients = await Promise.all(
    Array.from({ length: LOOPS }, async () => {
      const c = new Client({ connectionString: databaseUrl });
      await c.connect();
      return c;
    }),
  );
  const lags: number[] = [];
  const commandMs: number[] = [];
  const polls: number[] = [];
  let firstPollHits = 0;
  let failures = 0;
  let n = 0;
  ctx.log(`W5: ${durationS} s of PUT /Tails (${LOOPS} loops), each followed by polling the read model until its row is there`);
  try {
    const { cpu } = await ctx.measure('W5', async () => {
      const until = Date.now() + durationS * 1000;
      await Promise.all(
        clients.map(async (pg) => {
          while (Date.now() < until) {
            const mappedId = `w5-${(n++).toString(36)}`;
            const sent = nowMs();
            const status = await put(baseUrl, account.token, JSON.stringify(tailBody(mappedId, mappedId.toUpperCase())), agent);
            const answered = nowMs();
            if (status !== 201) {
              failures++;
              continue;
            }
            commandMs.push(answered - sent);
            let tries = 0;
            for (;;) {
              tries++;
              const { rowCount } = await pg.query(READ_MODEL_QUERY, [account.domain, account.clientId, mappedId]);
              if (rowCount) break;
              if (nowMs() - answered > 10_000) throw new Error(`W5: ${mappedId} not in the read model 10 s after its 201`);
            }
            lags.push(nowMs() - answered);
            polls.push(tries);
            if (tries === 1) firstPollHits++;
          }
        }),
      );
    });
    // What one poll costs when the row is there: the floor of the lag this method can measure.
    const rtt: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t = nowMs();
      await clients[0].query(READ_MODEL_QUERY, [account.domain, account.clientId, 'w5-0']);
      rtt.push(nowMs() - t);
    }
    const lag = summarize(lags);
    const queryRtt = summarize(rtt);
    const notes: string[] = [];
    if (failures) notes.push(`${failures} commands did not answer 201`);
    return {
      id: 'W5',
      title: `Projection lag after PUT /Tails 201 (${LOOPS} loops)`,
      throughput: { value: Math.round(lags.length / durationS), unit: 'cmd/s' },
      latencyMs: { p50: lag.p50, p99: lag.p99, what: '201 → row readable' },
      target: target('p99 ≤ 100 ms', { maxP99: [lag.p99, 100] }),
      cpu,
      notes,
      details: {
        commands: lags.length,
        lagMs: lag,
        foundOnFirstPoll: firstPollHits,
        maxPolls: Math.max(0, ...polls),
        commandLatencyMs: summarize(commandMs),
        pollQueryRttMs: queryRtt,
      },
    };
  } finally {
    agent.destroy();
    await Promise.all(clients.map((c) => c.end()));
  }
}

function put(baseUrl: string, token: string, body: string, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}/Tails`,
      { method: 'PUT', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
