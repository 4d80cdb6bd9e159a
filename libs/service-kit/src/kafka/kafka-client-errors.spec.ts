import { logLevel } from 'kafkajs';
import { metricsRegistry } from '../observability/metrics';
import { countingKafkaLogs } from './kafka-client-errors';

describe('countingKafkaLogs', () => {
  it("counts each kafkajs ERROR line in kafka_client_errors_total by client and namespace, and prints every line as kafkajs's own logger does", async () => {
    const printed = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const warned = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const log = countingKafkaLogs('spec-client')(logLevel.WARN);
      const entry = (level: logLevel, namespace: string, message: string) => ({ namespace, level, label: level === logLevel.ERROR ? 'ERROR' : 'WARN', log: { timestamp: '', logger: 'kafkajs', message } });
      log(entry(logLevel.ERROR, 'Connection', 'Connection error: connect ECONNREFUSED 127.0.0.1:1'));
      log(entry(logLevel.ERROR, 'Connection', 'Connection error: read ETIMEDOUT'));
      log(entry(logLevel.ERROR, 'Consumer', 'Crash: KafkaJSNumberOfRetriesExceeded'));
      log(entry(logLevel.WARN, 'Runner', 'The group is rebalancing, re-joining'));

      const metrics = await metricsRegistry.getSingleMetricAsString('kafka_client_errors_total');
      expect(metrics).toContain('kafka_client_errors_total{client="spec-client",namespace="Connection"} 2');
      expect(metrics).toContain('kafka_client_errors_total{client="spec-client",namespace="Consumer"} 1');
      expect(metrics).not.toContain('namespace="Runner"');
      expect(printed).toHaveBeenCalledTimes(3);
      expect(JSON.parse(printed.mock.calls[0][0] as string)).toMatchObject({ level: 'ERROR', logger: 'kafkajs', message: '[Connection] Connection error: connect ECONNREFUSED 127.0.0.1:1' });
      expect(warned).toHaveBeenCalledTimes(1);
    } finally {
      printed.mockRestore();
      warned.mockRestore();
    }
  });
});
