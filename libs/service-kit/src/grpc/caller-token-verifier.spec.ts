import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { CallerTokenSigner } from './caller-token-signer';
import { CallerTokenVerifier } from './caller-token-verifier';
import { serviceKeyId } from './service-key-id';
import { serviceVerifyKeys } from './service-verify-keys';

const pem = () => generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const publicPem = (privatePem: string) => createPublicKey(privatePem).export({ type: 'spki', format: 'pem' }).toString();
const caller = { domain: 'acme', source: 'client-1', role: 'operator' as const };

describe('CallerTokenVerifier: keys chosen by kid', () => {
  const [a, b] = [pem(), pem()];

  it('accepts a caller signed with any key SERVICE_VERIFY_KEY lists (PEMs one after the other)', () => {
    const verifier = new CallerTokenVerifier(serviceVerifyKeys(`${publicPem(a)}\n${publicPem(b)}`), 'tail-sync');
    expect(verifier.verify(new CallerTokenSigner(a).sign(caller, 'tail-sync').token).identity).toEqual(caller);
    expect(verifier.verify(new CallerTokenSigner(b).sign(caller, 'tail-sync').token).identity).toEqual(caller);
  });

  it('refuses a caller whose kid it does not list, and one with no kid', () => {
    const verifier = new CallerTokenVerifier(serviceVerifyKeys(publicPem(a)), 'tail-sync');
    expect(() => verifier.verify(new CallerTokenSigner(b).sign(caller, 'tail-sync').token)).toThrow(/kid/);
    const [header, payload, signature] = new CallerTokenSigner(a).sign(caller, 'tail-sync').token.split('.');
    const withoutKid = Buffer.from(JSON.stringify({ alg: 'EdDSA', typ: 'JWT' })).toString('base64url');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toHaveProperty('kid');
    expect(() => verifier.verify(`${withoutKid}.${payload}.${signature}`)).toThrow(/kid/);
  });

  it('names each key by its RFC 7638 thumbprint, the signer\'s kid', () => {
    const signer = new CallerTokenSigner(a);
    expect([...serviceVerifyKeys(publicPem(a)).keys()]).toEqual([signer.kid]);
    expect(signer.kid).toBe(serviceKeyId(createPublicKey(a)));
    expect(signer.kid).toMatch(/^[\w-]{43}$/);
  });

  it('refuses a SERVICE_VERIFY_KEY without a public key, or with a key that is not Ed25519', () => {
    expect(() => serviceVerifyKeys('nothing here')).toThrow(/no PEM public key/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(() => serviceVerifyKeys(rsa)).toThrow(/Ed25519/);
  });
});
