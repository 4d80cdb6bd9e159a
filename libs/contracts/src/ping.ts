/** Answer of a service's `ping` pattern: proves the Kafka round trip and names the instance. */
export interface PingReply {
  service: string;
  instance: string;
  ready: boolean;
  checks: Record<string, 'up' | 'down'>;
}
