import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy to PostgreSQL that a test can cut (every connection dropped, new ones refused at
 * once) and restore: an app behind it loses its database while every other app keeps it.
 */
export class DatabaseProxy {
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;
  private open = true;

  constructor(private readonly target: URL) {
    this.server = createServer((client) => {
      if (!this.open) return void client.destroy();
      const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as { port: number }).port;
  }

  cut(): void {
    this.open = false;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.open = true;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
