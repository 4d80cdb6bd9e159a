import type { RpcReply, RpcRequest, SigningKeysView, wire } from '@tailsync/contracts';
import { handleRpc, ProblemError } from '@tailsync/service-kit';
import { Injectable } from '@nestjs/common';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { SubscriptionStore } from '../subscriptions/subscription.store';
import { SubscriptionEventsPublisher } from '../subscriptions/subscription-events.publisher';
import { sealedKeyPair, signingKeyAt } from '../subscriptions/callback-keys';
import { noSubscription } from './rpc-problems';
import { SecretBox } from '../sealing/secret-box';

/** How long a JWK Set may be cached, at most; never longer than a rotation's grace period either. */
const JWKS_MAX_AGE_SECONDS = 300;

/**
 * The domain's Ed25519 keys (`signatureScheme: "ed25519"`): the public JWK Set, the keys with their
 * schedule, and a rotation (a new key published a grace period before it signs, the old one kept a
 * grace period after: WEBHOOK_SECRET_GRACE_SECONDS).
 */
@Injectable()
export class SigningKeyRequests {
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
      const rotation = await this.events.inTransaction((db) =>
        this.subscriptions.keys.rotate(caller.domain, () => sealedKeyPair(this.box, caller.domain), this.config.WEBHOOK_SECRET_GRACE_SECONDS, db),
      );
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

  private async view(domain: string): Promise<SigningKeysView> {
    const keys = (await this.subscriptions.keys.live([domain])).get(domain) ?? [];
    const now = new Date();
    const current = signingKeyAt(keys, now);
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
