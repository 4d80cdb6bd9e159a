/**
 * The tests call `docker compose` synchronously, which holds this process's event loop for
 * seconds to minutes. Meanwhile a server closes an idle keep-alive connection (or restarts), and
 * fetch (undici) has not seen it go: the next request on it fails before reaching the server
 * (EPIPE, "other side closed"). Such a request is sent once more, on a new connection.
 */
const fetchOnce = globalThis.fetch;

globalThis.fetch = (input, init) =>
  fetchOnce(input, init).catch((error: unknown) => {
    const code = (error as { cause?: { code?: string; name?: string } }).cause;
    const closedUnderUs = code?.code === 'EPIPE' || code?.code === 'ECONNRESET' || code?.code === 'UND_ERR_SOCKET' || code?.name === 'SocketError';
    if (!closedUnderUs) throw error;
    return fetchOnce(input, init);
  });
