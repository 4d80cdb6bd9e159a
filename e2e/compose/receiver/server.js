// A webhook receiver for the compose test: runs as a container on the compose network, answers
// 200 to every callback, and lists what it received at GET /received (headers and exact bytes).
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
      received.push({ path: req.url, headers: req.headers, bodyBase64: Buffer.concat(chunks).toString('base64'), receivedAt: Date.now() });
      res.end('ok');
    });
  })
  .listen(8080, () => console.log('receiver listening on :8080'));
