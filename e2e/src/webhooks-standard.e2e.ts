/**
 * Standard Webhooks headers on real callbacks (events with a retry, and a Test call), checked by the
 * official `standardwebhooks` packages of npm and PyPI: independent implementations, not ours.
 */
import { standardWebhooksSecret } from '@tailsync/webhooks';
import { Webhook } from 'standardwebhooks';
import { api } from './support/accounts';
import { runPython } from './support/python';
import { scripts, tokenOf, verifyWithJose, type ReceivedRequest } from './support/receiver';
import { deliveryOf, newSecret, publish, subscribed } from './support/webhooks';

const headersOf = (r: ReceivedRequest): Record<string, string> =>
  Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));

function verifyWithPython(requests: ReceivedRequest[], secret: string) {
  return runPython<{ ok: boolean; payload?: unknown; error?: string }[]>(
    'verify_standard_webhooks.py',
    requests.map((r) => ({ secret: standardWebhooksSecret(secret), headers: headersOf(r), body: r.rawBody.toString('base64') })),
  );
}

describe('Standard Webhooks signatures beside the JWT', () => {
  it('every attempt of an event and a Test call verify with standardwebhooks (npm and PyPI); another secret does not', async () => {
    const s = await subscribed(scripts.sequence(500, 200, 200));
    const [event] = await publish(s.account.domain);
    await deliveryOf(s.account, event.eventId, 'delivered');
    const test = await api(s.account, 'POST', '/WebhookSubscriptions/Test', { payloadToEcho: { hello: 'wörld' } });
    expect(test.body.success).toBe(true);
    const requests = s.receiver.requests;
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual([event.eventId, event.eventId, expect.stringMatching(/^test_[0-9a-f-]{36}$/)]);

    const npm = new Webhook(standardWebhooksSecret(s.secret));
    for (const r of requests) {
      expect(npm.verify(r.rawBody.toString('utf8'), headersOf(r))).toEqual(JSON.parse(r.rawBody.toString('utf8')));
      expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    }
    expect(verifyWithPython(requests, s.secret)).toEqual(requests.map((r) => ({ ok: true, payload: JSON.parse(r.rawBody.toString('utf8')) })));

    const other = newSecret();
    expect(() => new Webhook(standardWebhooksSecret(other)).verify(requests[0].rawBody.toString('utf8'), headersOf(requests[0]))).toThrow();
    expect(verifyWithPython(requests, other).map((v) => v.ok)).toEqual([false, false, false]);

    // webhook-timestamp is the JWT's iat, and the JWT still verifies (jose) with Authorization: Token
    const jose = verifyWithJose(requests.map((r) => ({ token: tokenOf(r.headers.authorization), secret: s.secret, body: r.rawBody })));
    expect(jose.map((v) => v.ok)).toEqual([true, true, true]);
    expect(requests.map((r) => Number(r.headers['webhook-timestamp']))).toEqual(jose.map((v) => v.payload!.iat));
  });
});
