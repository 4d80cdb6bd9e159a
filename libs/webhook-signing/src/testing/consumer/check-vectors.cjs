// Runs in an empty project that installed the packed @tailsync/webhooks: every shared vector the
// package ships must get its verdict, through require() (CommonJS) here and import() (ESM) below.
'use strict';
const { readdirSync, readFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

function check(lib, format) {
  const dir = join(dirname(require.resolve('@tailsync/webhooks/package.json')), 'vectors');
  let passed = 0;
  const failures = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    for (const v of JSON.parse(readFileSync(join(dir, file), 'utf8')).vectors) {
      const now = new Date(v.now * 1000);
      const authorization = Object.entries(v.headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
      const keys = v.publicKeys ? { publicKeys: v.publicKeys } : { secret: v.secrets };
      const t = lib.verifyWebhookRequest({ authorizationHeader: authorization, rawBody: Buffer.from(v.body, 'utf8'), ...keys, now, testCalls: v.options.testCalls });
      const s = lib.verifyStandardWebhook({ headers: v.headers, rawBody: v.body, ...keys, now, testCalls: v.options.testCalls });
      const got = { token: t.ok ? { ok: true } : { ok: false, step: t.step, code: t.code }, standardWebhooks: s.ok ? { ok: true } : { ok: false, code: s.code } };
      if (JSON.stringify(got) === JSON.stringify(v.expect)) passed += 1;
      else failures.push(`${file}: ${v.name}: got ${JSON.stringify(got)}`);
    }
  }
  return { format, passed, failures };
}

(async () => {
  const cjs = check(require('@tailsync/webhooks'), 'cjs');
  const esm = check(await import('@tailsync/webhooks'), 'esm');
  const express = typeof require('@tailsync/webhooks/express').webhookVerifier;
  const fastify = typeof (await import('@tailsync/webhooks/fastify')).webhookPreHandler;
  process.stdout.write(JSON.stringify({ cjs, esm, express, fastify }));
})();
