import { CallerTokenSigner, CallerTokenVerifier, serviceVerifyKeys } from '@tailsync/service-kit';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { SignedCallers } from './signed-callers';

describe('SignedCallers (a real Ed25519 signer, a clock of its own)', () => {
  const start = Date.parse('2026-11-28T06:00:00Z');
  let now = start;
  const clock = () => now;
  const key = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const signer = new CallerTokenSigner(key, clock);
  const verifier = new CallerTokenVerifier(serviceVerifyKeys(createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString()), 'tail-sync', clock);
  const tenant = { domain: 'acme', source: 'client-1', role: 'tenant' as const };
  const budget = () => now + 8_000;

  beforeEach(() => (now = start));

  it('signs a caller once and sends the same one while it outlives the call\'s deadline', () => {
    const callers = new SignedCallers(signer, 'tail-sync');
    const sign = jest.spyOn(signer, 'sign');
    const first = callers.token(tenant, budget());
    for (let s = 0; s < 52; s += 4) {
      now = start + s * 1000;
      expect(callers.token(tenant, budget())).toBe(first);
    }
    expect(sign).toHaveBeenCalledTimes(1);
    expect(verifier.verify(first).identity).toEqual(tenant);

    // 53 s in, a call with 8 s to go would outlive it: a new caller, valid for that call.
    now = start + 53_000;
    const second = callers.token(tenant, budget());
    expect(second).not.toBe(first);
    expect(sign).toHaveBeenCalledTimes(2);
    expect(verifier.verify(second).trustedUntilMs).toBeGreaterThan(budget());
    sign.mockRestore();
  });

  it('keeps one caller per domain, client and role', () => {
    const callers = new SignedCallers(signer, 'tail-sync');
    const tokens = new Set([
      callers.token(tenant, budget()),
      callers.token({ ...tenant, role: 'operator' }, budget()),
      callers.token({ ...tenant, domain: 'other' }, budget()),
      callers.token({ ...tenant, source: 'client-2' }, budget()),
      callers.token(tenant, budget()),
    ]);
    expect(tokens.size).toBe(4);
    expect([...tokens].map((token) => verifier.verify(token).identity.role)).toEqual(['tenant', 'operator', 'tenant', 'tenant']);
  });

  it('keeps at most its capacity: a caller it forgot is signed again', () => {
    const callers = new SignedCallers(signer, 'tail-sync', 2);
    const sign = jest.spyOn(signer, 'sign');
    for (const domain of ['a', 'b', 'c', 'a']) callers.token({ ...tenant, domain }, budget());
    expect(sign).toHaveBeenCalledTimes(4);
    sign.mockRestore();
  });

  it('signs again with a new key at once, instead of sending a caller the old key signed', () => {
    const nextKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    let inUse = signer;
    const rotating = { get kid() { return inUse.kid; }, sign: (caller: typeof tenant, audience: string) => inUse.sign(caller, audience) };
    const callers = new SignedCallers(rotating, 'tail-sync');
    const before = callers.token(tenant, budget());
    inUse = new CallerTokenSigner(nextKey, clock);
    const after = callers.token(tenant, budget());
    const headerKid = (token: string) => JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()).kid as string;
    expect([headerKid(before), headerKid(after)]).toEqual([signer.kid, inUse.kid]);
    expect(inUse.kid).not.toBe(signer.kid);
  });
});
