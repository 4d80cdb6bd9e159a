import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { CallerRefused } from './caller-token';
import { CallerTokenSigner } from './caller-token-signer';
import { CallerTokenVerifier } from './caller-token-verifier';
import { serviceVerifyKeys } from './service-verify-keys';
import { VerifiedCallers } from './verified-callers';

const pem = () => generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const publicPem = (privatePem: string) => createPublicKey(privatePem).export({ type: 'spki', format: 'pem' }).toString();

describe('VerifiedCallers (a real Ed25519 signer and verifier, a clock of its own)', () => {
  const start = Date.parse('2026-11-28T06:00:00Z');
  let now = start;
  const clock = () => now;
  const key = pem();
  const signer = new CallerTokenSigner(key, clock);
  const verifier = new CallerTokenVerifier(serviceVerifyKeys(publicPem(key)), 'tail-sync', clock);
  const tenant = { domain: 'acme', source: 'client-1', role: 'tenant' as const };

  beforeEach(() => (now = start));

  it('checks a caller once and answers it from memory until it expires', () => {
    const callers = new VerifiedCallers(verifier, clock);
    const verify = jest.spyOn(verifier, 'verify');
    const { token } = signer.sign(tenant, 'tail-sync');
    for (let i = 0; i < 5; i++) {
      expect(callers.identify(token)).toEqual(tenant);
      now += 10_000;
    }
    expect(verify).toHaveBeenCalledTimes(1);
    verify.mockRestore();
  });

  it('refuses the same bytes once they expired (60 s, then 5 s of clock skew), though it kept them', () => {
    const callers = new VerifiedCallers(verifier, clock);
    const { token } = signer.sign(tenant, 'tail-sync');
    expect(callers.identify(token)).toEqual(tenant);
    now += 64_000;
    expect(callers.identify(token)).toEqual(tenant);
    now += 1_000;
    expect(() => callers.identify(token)).toThrow(CallerRefused);
    expect(() => callers.identify(token)).toThrow(/expired/);
  });

  it('keeps no refusal: a caller for another service is checked, and refused, every time', () => {
    const callers = new VerifiedCallers(verifier, clock);
    const verify = jest.spyOn(verifier, 'verify');
    const { token } = signer.sign(tenant, 'webhook-dispatcher');
    expect(() => callers.identify(token)).toThrow(/aud/);
    expect(() => callers.identify(token)).toThrow(/aud/);
    expect(verify).toHaveBeenCalledTimes(2);
    verify.mockRestore();
  });

  it('keeps at most its capacity, forgetting the least recently used', () => {
    const callers = new VerifiedCallers(verifier, clock, 2);
    const verify = jest.spyOn(verifier, 'verify');
    const [a, b, c] = ['a', 'b', 'c'].map((domain) => signer.sign({ ...tenant, domain }, 'tail-sync').token);
    callers.identify(a);
    callers.identify(b);
    callers.identify(a); // a is now the most recent
    callers.identify(c); // b goes
    expect(verify).toHaveBeenCalledTimes(3);
    callers.identify(a);
    expect(verify).toHaveBeenCalledTimes(3);
    callers.identify(b);
    expect(verify).toHaveBeenCalledTimes(4);
    verify.mockRestore();
  });
});
