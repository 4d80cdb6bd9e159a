import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'tailsync_console';
export const CSRF_HEADER = 'x-csrf-token';
export const SESSION_LIFETIME_MS = 8 * 3600_000;

/** A signed-in console session: `nonce` names it, and its CSRF token is derived from it. */
export interface ConsoleSession {
  nonce: string;
  expiresAtMs: number;
}

/**
 * Console sessions as signed cookie values (`<expires>.<nonce>.<mac>`), keyed by the admin token:
 * every gateway copy accepts them without shared state, and changing ADMIN_TOKEN ends them all.
 */
export class ConsoleSessions {
  private readonly key: Buffer;

  constructor(adminToken: string) {
    this.key = createHmac('sha256', adminToken).update('tailsync-console-session').digest();
  }

  issue(nowMs: number): { cookieValue: string; session: ConsoleSession } {
    const session = { nonce: randomBytes(18).toString('base64url'), expiresAtMs: nowMs + SESSION_LIFETIME_MS };
    const payload = `${session.expiresAtMs}.${session.nonce}`;
    return { cookieValue: `${payload}.${this.mac(payload)}`, session };
  }

  /** The session a cookie value names, if this gateway signed it and it has not expired. */
  verify(cookieValue: string | undefined, nowMs: number): ConsoleSession | null {
    const parts = cookieValue?.split('.') ?? [];
    if (parts.length !== 3) return null;
    const [expires, nonce, mac] = parts;
    if (!sameText(mac, this.mac(`${expires}.${nonce}`))) return null;
    const expiresAtMs = Number(expires);
    return Number.isSafeInteger(expiresAtMs) && expiresAtMs > nowMs ? { nonce, expiresAtMs } : null;
  }

  csrfToken(session: ConsoleSession): string {
    return this.mac(`csrf.${session.nonce}`);
  }

  isCsrfToken(session: ConsoleSession, given: string | undefined): boolean {
    return typeof given === 'string' && sameText(given, this.csrfToken(session));
  }

  private mac(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
