// Runs in an empty project that installed the packed @tailsync/webhooks, under require() only: a
// real JWK Set endpoint, a real Express receiver with the package's helper given a RemoteKeySet
// from the main entry, and an Ed25519 callback signed by the package's sign(). Prints what it saw.
'use strict';
const { createServer } = require('node:http');
const { generateKeyPairSync } = require('node:crypto');
const express = require('express');
const { RemoteKeySet, jwkThumbprint, sign, webhookJwksUrl } = require('@tailsync/webhooks');
const { webhookVerifier } = require('@tailsync/webhooks/express');

const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));

(async () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  let jwksFetches = 0;
  const jwks = createServer((req, res) => {
    jwksFetches += 1;
    res.writeHead(200, { 'content-type': 'application/jwk-set+json', 'cache-control': 'public, max-age=300' });
    res.end(JSON.stringify({ keys: [{ ...jwk, kid: jwkThumbprint(jwk), use: 'sig', alg: 'EdDSA' }] }));
  });
  const jwksBase = await listen(jwks);

  const received = [];
  const app = express();
  app.post('/webhooks/tailsync',
    express.raw({ type: 'application/json' }),
    webhookVerifier({ publicKeys: new RemoteKeySet(webhookJwksUrl(jwksBase, 'acme')) }),
    (req, res) => { received.push(req.webhook.payload); res.sendStatus(204); });
  const receiver = createServer(app);
  const receiverBase = await listen(receiver);

  const post = async ({ body, headers }) => {
    const response = await fetch(`${receiverBase}/webhooks/tailsync`, { method: 'POST', body, headers });
    return { status: response.status, body: await response.text() };
  };
  const payload = { eventId: 'e-1', eventName: 'Product.RiskAssessmentExecuted', domain: 'acme', data: { score: 42 } };
  const signed = sign({ payload, privateKey });
  const verified = await post(signed);
  const tampered = await post({ ...signed, body: signed.body.replace('42', '43') });
  jwks.close();
  receiver.close();
  process.stdout.write(JSON.stringify({ verified, tampered, received, jwksFetches }));
})().catch((error) => {
  process.stderr.write(String(error && error.stack));
  process.exit(1);
});
