// A webhook receiver for the compose test: runs as a container on the compose network, answers
// 200 to every callback, and lists what it received at GET /received (headers and exact bytes).
// A callback to /slow/<ms>/… is answered only after <ms> milliseconds (an attempt in flight).
'use strict';
const http = require('node:http');

const received = [];
http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/received') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(received));
        return;
      }
      const call = { path: req.url, headers: req.headers, bodyBase64: Buffer.concat(chunks).toString('base64'), receivedAt: Date.now() };
      received.push(call);
      const delayMs = Number(/^\/slow\/(\d+)\//.exec(req.url ?? '')?.[1] ?? 0);
      setTimeout(() => {
        call.answeredAt = Date.now();
        res.end('ok');
      }, delayMs);
    });
  })
  .listen(8080, () => console.log('receiver listening on :8080'));
