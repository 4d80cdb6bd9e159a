import { API_VERSION } from '@tailsync/contracts';

type Next = () => void;
interface HeaderSink {
  setHeader(name: string, value: string): unknown;
}

/** `X-Api-Version` on every response, errors included. */
export function versionHeader(_req: unknown, res: HeaderSink, next: Next): void {
  res.setHeader('X-Api-Version', API_VERSION);
  next();
}
