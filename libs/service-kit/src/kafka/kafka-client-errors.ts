import { logCreator, logLevel, LogEntry } from 'kafkajs';
import { Counter } from 'prom-client';
import { metricsRegistry, registeredMetric } from '../observability/metrics';

const errors = (): Counter<'client' | 'namespace'> =>
  registeredMetric(
    'kafka_client_errors_total',
    () =>
      new Counter({
        name: 'kafka_client_errors_total',
        help: 'ERROR lines of the kafkajs clients (a failed connection, request or send, a consumer crash), by client and kafkajs namespace',
        labelNames: ['client', 'namespace'] as const,
        registers: [metricsRegistry],
      }),
  );

/**
 * kafkajs's own JSON lines on the console, each ERROR also counted in `kafka_client_errors_total`:
 * what an operator graphs during a broker's loss, where the lines only say it one by one.
 */
export function countingKafkaLogs(client: string): logCreator {
  const counter = errors();
  // kafkajs's default logger, as published (loggers/console).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const console = (require('kafkajs/src/loggers/console') as logCreator)(logLevel.NOTHING);
  return () => (entry: LogEntry) => {
    if (entry.level === logLevel.ERROR) counter.inc({ client, namespace: entry.namespace || 'client' });
    console(entry);
  };
}
