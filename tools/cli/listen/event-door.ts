import type { EventPageView } from '@tailsync/contracts';

/** How `listen` signs in: an access token as is, or a service account's client credentials (a token is fetched, and again when it lapses). */
export type DoorCredentials = { token: string } | { clientId: string; clientSecret: string };

/** The door answered with an error: `status` 0 when it could not be reached. */
export class DoorError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }

  /** Worth asking again after a pause: the gateway unreachable, busy or failing, not a refusal of the request. */
  get passing(): boolean {
    return this.status === 0 || this.status === 408 || this.status === 429 || this.status >= 500;
  }
}

/** The polling door of one domain, `GET /WebhookSubscriptions/Events`, as a client reads it. */
export class EventDoor {
  private token: string | undefined;

  constructor(private readonly baseUrl: string, private readonly credentials: DoorCredentials) {
    if ('token' in credentials) this.token = credentials.token;
  }

  async page(after: string | undefined, limit: number): Promise<EventPageView> {
    const query = new URLSearchParams({ limit: String(limit), ...(after === undefined ? {} : { after }) });
    const url = `${this.baseUrl}/WebhookSubscriptions/Events?${query}`;
    let res = await this.get(url, await this.accessToken());
    // A token lapses after its lifetime: with client credentials, fetch another once.
    if (res.status === 401 && !('token' in this.credentials)) {
      this.token = undefined;
      res = await this.get(url, await this.accessToken());
    }
    if (res.status !== 200) throw new DoorError(res.status, `GET /WebhookSubscriptions/Events answered ${res.status}: ${await problemDetail(res)}`);
    return (await res.json()) as EventPageView;
  }

  private async get(url: string, token: string): Promise<Response> {
    try {
      return await fetch(url, { headers: { Authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(30_000) });
    } catch (error) {
      throw new DoorError(0, `${this.baseUrl} could not be reached (${(error as Error).message})`);
    }
  }

  private async accessToken(): Promise<string> {
    if (this.token !== undefined) return this.token;
    const { clientId, clientSecret } = this.credentials as { clientId: string; clientSecret: string };
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new DoorError(0, `${this.baseUrl} could not be reached (${(error as Error).message})`);
    }
    if (res.status !== 200) throw new DoorError(res.status, `POST /oauth/token answered ${res.status}: ${await problemDetail(res)}`);
    this.token = ((await res.json()) as { access_token: string }).access_token;
    return this.token;
  }
}

/** The `detail` of a problem answer (never a credential: the gateway's problems hold none), else its status text. */
async function problemDetail(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const problem = JSON.parse(text) as { detail?: string; error_description?: string };
    return problem.detail ?? problem.error_description ?? res.statusText;
  } catch {
    return res.statusText;
  }
}
