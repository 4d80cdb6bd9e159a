import Fastify, { FastifyInstance } from 'fastify';
import { AddressInfo, connect } from 'node:net';
import { lingerBeforeEarlyAnswers } from './lingering-close';

const LIMIT = 64 * 1024;

/** Sends a body of `size` bytes in slow chunks; resolves with what came back and whether the socket failed. */
function slowUpload(port: number, size: number): Promise<{ response: string; error?: string; wrote: number }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let response = '';
    let error: string | undefined;
    let wrote = 0;
    const chunk = Buffer.alloc(16 * 1024, 'x');
    socket.on('data', (d) => (response += d.toString()));
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => resolve({ response, error, wrote }));
    socket.write(`PUT /tails HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`);
    const writeNext = (): void => {
      if (socket.destroyed || wrote >= size) return;
      const part = chunk.subarray(0, Math.min(chunk.length, size - wrote));
      wrote += part.length;
      socket.write(part);
      setTimeout(writeNext, 5);
    };
    setTimeout(writeNext, 20);
  });
}

describe('an answer sent before the body has arrived (lingering close)', () => {
  let http: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    http = Fastify({ bodyLimit: LIMIT });
    // A linger bound far above Jest's 5 s test timeout: a request held back by mistake fails its test.
    lingerBeforeEarlyAnswers(http, { maxBytes: 8 * LIMIT, maxMs: 60_000 });
    http.put('/tails', async () => ({ stored: true }));
    http.get('/tails', async () => ({ items: [] }));
    await http.listen({ port: 0, host: '127.0.0.1' });
    port = (http.server.address() as AddressInfo).port;
  });
  afterAll(() => http.close());

  it('reaches a client still writing an oversized body as a 413, not as a reset connection', async () => {
    const result = await slowUpload(port, 4 * LIMIT);
    expect(result.error).toBeUndefined();
    expect(result.wrote).toBe(4 * LIMIT);
    expect(result.response).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('does not read a body larger than its bound: that connection is cut off as before', async () => {
    const result = await slowUpload(port, 64 * LIMIT);
    expect(result.response).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.wrote).toBeLessThan(64 * LIMIT);
  });

  it('answers a request whose body was read, or that has none, without waiting', async () => {
    const put = await fetch(`http://127.0.0.1:${port}/tails`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' });
    expect([put.status, await put.json()]).toEqual([200, { stored: true }]);
    const get = await fetch(`http://127.0.0.1:${port}/tails`);
    expect([get.status, await get.json()]).toEqual([200, { items: [] }]);
  });
});
