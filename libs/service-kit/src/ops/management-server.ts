import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import { metricsRegistry } from '../observability/metrics';
import { ReadinessReport } from './readiness-report';

/**
 * The operators' port (MANAGEMENT_PORT), beside a public one: `/metrics` and the detailed
 * readiness report, which say too much about the system to answer anyone on the internet.
 * A plain HTTP server: none of the public port's auth, limits or problem bodies apply here.
 */
export class ManagementServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('management');
  private server?: Server;

  constructor(
    private readonly port: number,
    /** The HOST setting: the same address as the process's other listeners. */
    private readonly host: string,
    private readonly report: ReadinessReport,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      const send = (status: number, type: string, body: string) => res.writeHead(status, { 'Content-Type': type }).end(body);
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'GET only\n');
      if (path === '/metrics') {
        void metricsRegistry.metrics().then((text) => send(200, metricsRegistry.contentType, text), (error: Error) => send(500, 'text/plain', `${error.message}\n`));
      } else if (path === '/health/live') {
        send(200, 'application/json', JSON.stringify({ status: 'ok' }));
      } else if (path === '/health/ready') {
        void this.report.current().then((result) => send(result.status === 'ok' ? 200 : 503, 'application/json', JSON.stringify(result)));
      } else {
        send(404, 'text/plain', 'Not found: /metrics, /health/live, /health/ready\n');
      }
    });
    await new Promise<void>((resolve, reject) => {
      this.server?.once('error', reject).listen(this.port, this.host, () => resolve());
    });
    this.logger.log(`metrics and readiness on ${this.host} port ${this.port}`);
  }

  async onApplicationShutdown(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
