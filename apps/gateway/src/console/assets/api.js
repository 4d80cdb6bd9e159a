// Calls the documented /admin/ endpoints with the session cookie; state-changing calls carry the
// session's CSRF token. A 401 means the session ended: back to the sign-in page.

let csrfToken;

async function csrf() {
  if (!csrfToken) {
    const res = await fetch('/console/session', { credentials: 'same-origin' });
    if (res.status === 401) return signedOut();
    csrfToken = (await res.json()).csrfToken;
  }
  return csrfToken;
}

function signedOut() {
  location.assign('/console');
  return new Promise(() => {}); // the page is going away
}

/** An error the page shows: the problem's detail, or the status. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail ?? `The request failed (${status}).`);
    this.status = status;
  }
}

export async function call(method, path, body) {
  const headers = {};
  if (method !== 'GET') headers['X-CSRF-Token'] = await csrf();
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status === 401) return signedOut();
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : undefined;
  if (!res.ok) throw new ApiError(res.status, parsed);
  return parsed;
}

export async function signOut() {
  await fetch('/console/session', { method: 'DELETE', headers: { 'X-CSRF-Token': await csrf() }, credentials: 'same-origin' });
  location.assign('/console');
}

/** `?a=1&b=2` of the non-empty values. */
export function query(params) {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') q.set(key, value);
  const text = q.toString();
  return text ? `?${text}` : '';
}
