import { Client } from 'pg';

/** Runs `work` on a connection of its own to `url` (not a pool's), closed after, whatever happens. */
export async function onServer<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
