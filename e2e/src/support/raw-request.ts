import { request } from 'node:http';
import { E2E_PORTS } from './test-stack';

export interface RawRequest {
  method: string;
  /** Sent on the wire exactly as given (fetch would normalise it). */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  port?: number;
  /** The source address the gateway sees (any of 127.0.0.0/8 reaches it). */
  from?: string;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One HTTP request with nothing in between: no URL normalisation, a chosen source address. */
export function rawRequest(r: RawRequest): Promise<RawResponse> {
  const headers = { ...r.headers, ...(r.body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(r.body)) }) };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: r.port ?? E2E_PORTS.gateway, localAddress: r.from, method: r.method, path: r.path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(r.body);
  });
}

let lastOctets = Math.floor(Math.random() * 200) * 256;

/** A loopback source address no other test of the run uses, so per-address counts start at zero. */
export function freshSourceAddress(): string {
  lastOctets++;
  return `127.1.${(lastOctets >> 8) & 255}.${(lastOctets & 255) || 1}`;
}
