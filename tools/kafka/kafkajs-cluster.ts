/**
 * kafkajs's own cluster object, for the requests its Admin API lacks or sends to a broker of its
 * choosing (SCRAM users; the ACLs one given broker holds). Written for kafkajs 2.2.4, which keeps
 * it behind a private symbol; it carries the client's SASL and TLS settings.
 */
import type { Kafka } from 'kafkajs';

export interface KafkajsConnection {
  send(request: { request: unknown; response: unknown }): Promise<unknown>;
}

/** A filter or an entry of DescribeAcls, as the broker's request takes and answers it. */
export interface AclFilter {
  resourceType: number;
  resourceName?: string;
  resourcePatternType: number;
  principal?: string;
  host?: string;
  operation: number;
  permissionType: number;
}

export interface DescribedAcls {
  resources: { resourceType: number; resourceName: string; resourcePatternType: number; acls: { principal: string; host: string; operation: number; permissionType: number }[] }[];
}

export interface KafkajsBroker {
  connectionPool: { getConnection(): Promise<KafkajsConnection> };
  describeAcls(filter: AclFilter): Promise<DescribedAcls>;
}

export interface KafkajsCluster {
  connect(): Promise<void>;
  refreshMetadata(): Promise<void>;
  disconnect(): Promise<void>;
  findControllerBroker(): Promise<KafkajsBroker>;
  findBroker(node: { nodeId: number }): Promise<KafkajsBroker>;
}

export function createCluster(kafka: Kafka): KafkajsCluster {
  const symbol = Object.getOwnPropertySymbols(kafka).find((s) => s.description === 'private:Kafka:createCluster');
  if (!symbol) throw new Error('this kafkajs has no private:Kafka:createCluster (written for kafkajs 2.2.4)');
  return (kafka as unknown as Record<symbol, (options: object) => KafkajsCluster>)[symbol]({ metadataMaxAge: 60_000 });
}
