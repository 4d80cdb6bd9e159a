import type { RpcReply, RpcRequest, SigningKeysView, wire } from '@tailsync/contracts';
import type { SubscriptionActor } from '../subscriptions/domain/operator-hold';
import { handleRpc, ProblemError } from '@tailsync/service-kit';
import { Injectable, Logger } from '@nestjs/common';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { SubscriptionStore } from '../subscriptions/subscription.store';
import { SubscriptionEventsPublisher } from '../subscriptions/subscription-events.publisher';
import { sealedKeyPair, signingKeyAt } from '../subscriptions/callback-keys';
import { noSubscription } from './rpc-problems';
import { SecretBox } from '../sealing/secret-box';

/** What a `kid` looks like (an RFC 7638 thumbprint is 43 base64url characters); anything else names no key. */
const KID = /^[A-Za-z0-9_-]{1,64}$/;

/** How long a JWK Set may be cached, at most; never longer than a rotation's grace period either. */
const JWKS_MAX_AGE_SECONDS = 300;

/**
 * The domain's Ed25519 keys (`signatureScheme: "ed25519"`): the public JWK Set, the keys with their
 * schedule, and a rotation (a new key published a grace period before it signs, the old one kept a
 * grace period after: WEBHOOK_SECRET_GRACE_SECONDS), and a revocation (out of the set at once).
 */
@Injectable()
export class SigningKeyRequests {
  private readonly logger = new Logger('SigningKeyRequests');

  constructor(
    private readonly config: WebhookDispatcherConfig,
    private readonly box: SecretBox,
    private readonly subscriptions: SubscriptionStore,
    private readonly events: SubscriptionEventsPublisher,
  ) {}

  /** The public keys of the caller's domain (the gateway's public JWK Set endpoint names the domain); empty when it has none. */
  keySet(request: RpcRequest<unknown>): Promise<RpcReply<wire.SigningKeySet>> {
    return handleRpc(request, async ({ caller }) => {
      const keys = (await this.subscriptions.keys.live([caller.domain])).get(caller.domain) ?? [];
      return {
        keys: keys.map(({ kid, publicKey }) => ({ kid, x: publicKey })),
        maxAgeSeconds: Math.min(JWKS_MAX_AGE_SECONDS, this.config.WEBHOOK_SECRET_GRACE_SECONDS),
      };
    });
  }

  list(request: RpcRequest<unknown>): Promise<RpcReply<SigningKeysView>> {
    return handleRpc(request, async ({ caller }) => this.view(caller.domain));
  }

  /**
   * 404 without a subscription; 409 when it signs with its shared secret (rotated by saving a new
   * one), and while a rotation is under way (a second one would otherwise seem to succeed and do nothing).
   */
  rotate(request: RpcRequest<unknown>): Promise<RpcReply<SigningKeysView>> {
    return handleRpc(request, async ({ caller }) => {
      const subscription = await this.subscriptions.get(caller.domain);
      if (!subscription) throw noSubscription();
      if (subscription.signatureScheme !== 'ed25519') {
        throw new ProblemError({ kind: 'conflict', detail: 'The subscription signs with its shared secret (hmac-sha256): rotate that by saving the subscription with a new sharedSecret.' });
      }
      const rotation = await this.events.inTransaction(async (db) => {
        const done = await this.subscriptions.keys.rotate(caller.domain, () => sealedKeyPair(this.box, caller.domain), this.config.WEBHOOK_SECRET_GRACE_SECONDS, db);
        if (done.rotated) {
          await this.events.record(db, 'SigningKeyRotated', caller.domain, {
            kid: done.key.kid, signsFrom: done.key.signsFrom.toISOString(), retiringKid: done.retiring?.kid ?? null, retiresAt: done.retiring?.retiresAt?.toISOString() ?? null,
          });
        }
        return done;
      });
      if (!rotation.rotated) {
        throw new ProblemError({
          kind: 'conflict',
          title: 'A rotation is under way',
          detail: `Key ${rotation.waiting.kid} was published at ${rotation.waiting.createdAt.toISOString()} and signs from ${rotation.waiting.signsFrom.toISOString()}: rotate again after that.`,
        });
      }
      return this.view(caller.domain);
    });
  }

  /** The tenant's revocation (POST /WebhookSubscriptions/SigningKeys/{kid}/Revoke). */
  revoke(request: RpcRequest<wire.RevokeSigningKeyRequest__Output>): Promise<RpcReply<SigningKeysView>> {
    return this.revokeAs(request, 'tenant');
  }

  /** The admin API's revocation: the same, announced as the operator's. */
  revokeByOperator(request: RpcRequest<wire.RevokeSigningKeyRequest__Output>): Promise<RpcReply<SigningKeysView>> {
    return this.revokeAs(request, 'operator');
  }

  /**
   * Any key the domain publishes may be revoked, whatever its subscription's state (a key of a
   * deleted or HMAC subscription too, before its grace period ends): a leaked key must go now. A new
   * key is made only for a subscription that signs with Ed25519.
   */
  private revokeAs(request: RpcRequest<wire.RevokeSigningKeyRequest__Output>, revokedBy: SubscriptionActor): Promise<RpcReply<SigningKeysView>> {
    return handleRpc(request, async ({ caller, body }) => {
      const kid = typeof body?.kid === 'string' && KID.test(body.kid) ? body.kid : undefined;
      const subscription = await this.subscriptions.get(caller.domain);
      const make = subscription?.signatureScheme === 'ed25519' ? () => sealedKeyPair(this.box, caller.domain) : undefined;
      const revocation = kid === undefined ? null : await this.events.inTransaction(async (db) => {
        const done = await this.subscriptions.keys.revoke(caller.domain, kid, make, db);
        if (done) await this.events.record(db, 'SigningKeyRevoked', caller.domain, { kid, revokedBy, signingKid: done.signingKid });
        return done;
      });
      if (!revocation) throw new ProblemError({ kind: 'not-found', detail: 'The domain publishes no signing key of that kid (GET /WebhookSubscriptions/SigningKeys lists them).' });
      this.logger.warn({ msg: 'webhook signing key revoked', domain: caller.domain, kid, revokedBy, signingKid: revocation.signingKid });
      return this.view(caller.domain);
    });
  }

  private async view(domain: string): Promise<SigningKeysView> {
    const [keys, subscription] = await Promise.all([this.subscriptions.keys.live([domain]).then((live) => live.get(domain) ?? []), this.subscriptions.get(domain)]);
    const now = new Date();
    // A deleted or HMAC subscription's keys sign nothing: they are all on their way out.
    const current = subscription?.signatureScheme === 'ed25519' ? signingKeyAt(keys, now) : undefined;
    return {
      items: keys.map((k) => ({
        kid: k.kid,
        status: k === current ? 'current' : k.signsFrom > now ? 'next' : 'retiring',
        createdAt: k.createdAt.toISOString(),
        signsFrom: k.signsFrom.toISOString(),
        retiresAt: k.retiresAt?.toISOString() ?? null,
      })),
    };
  }
}
