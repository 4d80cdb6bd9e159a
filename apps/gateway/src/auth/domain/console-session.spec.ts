import { ConsoleSessions, cookieValue, SESSION_LIFETIME_MS } from './console-session';

describe('ConsoleSessions', () => {
  const sessions = new ConsoleSessions('admin-token');

  it('accepts the cookie it issued until it expires, and derives a CSRF token from it', () => {
    const { cookieValue: value, session } = sessions.issue(1_000);
    expect(sessions.verify(value, 1_000 + SESSION_LIFETIME_MS - 1)).toEqual(session);
    expect(sessions.verify(value, 1_000 + SESSION_LIFETIME_MS)).toBeNull();
    expect(sessions.isCsrfToken(session, sessions.csrfToken(session))).toBe(true);
    expect(sessions.isCsrfToken(session, undefined)).toBe(false);
    expect(sessions.isCsrfToken(session, sessions.csrfToken(sessions.issue(1_000).session))).toBe(false);
  });

  it('refuses a changed, foreign or malformed cookie', () => {
    const { cookieValue: value } = sessions.issue(1_000);
    const [, nonce, mac] = value.split('.');
    expect(sessions.verify(`${9e15}.${nonce}.${mac}`, 1_000)).toBeNull(); // a later expiry
    expect(new ConsoleSessions('another-admin-token').verify(value, 1_000)).toBeNull();
    for (const bad of [undefined, '', 'a.b', 'a.b.c.d', `x.${nonce}.${mac}`]) expect(sessions.verify(bad, 1_000)).toBeNull();
  });

  it('reads one cookie of a Cookie header', () => {
    expect(cookieValue('a=1; tailsync_console=x.y.z; b=2', 'tailsync_console')).toBe('x.y.z');
    expect(cookieValue('tailsync_consolex=1', 'tailsync_console')).toBeUndefined();
    expect(cookieValue(undefined, 'tailsync_console')).toBeUndefined();
  });
});
