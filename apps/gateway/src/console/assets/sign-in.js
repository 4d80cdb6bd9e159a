// Sends the admin token once; the gateway answers with the session cookie and the page reloads into the console.
const form = document.getElementById('sign-in');
const error = document.getElementById('sign-in-error');
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  error.textContent = '';
  const res = await fetch('/console/session', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token: form.elements.token.value }),
  });
  if (res.status === 204) return location.reload();
  const problem = await res.json().catch(() => ({}));
  error.textContent = problem.detail ?? `Sign-in failed (${res.status}).`;
});
