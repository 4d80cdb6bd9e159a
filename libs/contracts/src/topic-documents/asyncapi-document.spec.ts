import { Parser } from '@asyncapi/parser';
import { TOPICS } from '../topics';
import { asyncApiDocument } from './asyncapi-document';
import { KAFKA_TOPICS } from './all-topics';

const ERROR = 0; // DiagnosticSeverity.Error

/** The schema as written: the parser tags each sub-schema with an `x-parser-schema-id`. */
const asWritten = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema ?? null, (key, value) => (key === 'x-parser-schema-id' ? undefined : value)));

async function parse(document: unknown) {
  const { document: parsed, diagnostics } = await new Parser().parse(JSON.stringify(document));
  return { parsed, errors: diagnostics.filter((d) => d.severity === ERROR).map((d) => `${d.path.join('.')}: ${d.message}`) };
}

describe('AsyncAPI document (checked by @asyncapi/parser)', () => {
  it('is a valid AsyncAPI 3.0 document', async () => {
    const { parsed, errors } = await parse(asyncApiDocument());
    expect(errors).toEqual([]);
    expect(parsed?.version()).toBe('3.0.0');
  });

  it('names its servers (compose, compose with its TLS override, a TLS cluster) and their SASL/SCRAM security', async () => {
    const { parsed } = await parse(asyncApiDocument());
    const servers = Object.fromEntries(parsed!.servers().all().map((s) => [s.id(), s]));
    expect(Object.keys(servers).sort()).toEqual(['compose', 'compose-tls', 'tls']);
    // Compose's listener is wherever its settings put it: defaults as docker-compose.yml has them.
    for (const id of ['compose', 'compose-tls']) {
      const variables = Object.fromEntries(servers[id].variables().all().map((v) => [v.id(), v.defaultValue()]));
      expect({ id, host: servers[id].host(), variables }).toEqual({ id, host: '{host}:{port}', variables: { host: 'localhost', port: '9094' } });
    }
    expect(servers.compose.protocol()).toBe('kafka');
    expect(servers['compose-tls'].protocol()).toBe('kafka-secure');
    expect(servers.tls.protocol()).toBe('kafka-secure');
    for (const server of Object.values(servers)) {
      const schemes = server.security().flatMap((requirement) => requirement.all().map((r) => r.scheme().type()));
      expect(schemes).toEqual(['scramSha512', 'scramSha256']);
    }
  });

  it('has every topic as a channel, with its message, key, headers and payload schema', async () => {
    const { parsed } = await parse(asyncApiDocument());
    const channels = parsed!.channels().all();
    expect(channels.map((c) => c.address()).sort()).toEqual(KAFKA_TOPICS.map((t) => t.topic).sort());
    // Every topic the code names has its contract (the webhook event types' come from their registry).
    expect(KAFKA_TOPICS.map((t) => t.topic)).toEqual(expect.arrayContaining(Object.values(TOPICS)));
    for (const topic of KAFKA_TOPICS) {
      const channel = channels.find((c) => c.address() === topic.topic)!;
      const [message] = channel.messages().all();
      expect(message.name()).toBe(topic.message.name);
      expect(asWritten(message.payload()?.json())).toEqual(topic.message.payload);
      expect(asWritten(message.headers()?.json())).toEqual(topic.message.headers);
      expect(message.bindings().get('kafka')?.value()).toMatchObject({ key: topic.message.key });
      const operation = channel.operations().all()[0];
      expect(operation.action()).toBe(topic.tailsync);
    }
  });

  it('names the security scheme and, per channel, the principals that write and read it', async () => {
    const document = asyncApiDocument() as any;
    expect(document.servers.compose.security).toContainEqual({ $ref: '#/components/securitySchemes/scramSha512' });
    expect(document.components.securitySchemes.scramSha512.type).toBe('scramSha512');
    expect(document.channels.tailEvents['x-kafka-principals']).toEqual({
      write: ['tail-sync'],
      read: [{ principal: 'reader', groups: 'reader-*' }, { principal: 'NAME', groups: 'NAME-*', when: 'kafka-principals --reader NAME --topic tailsync.tail-events' }],
    });
    expect(document.channels.tailEvents.description).toContain('read by `reader` (groups `reader-*`) and a named reader given this topic');
    const { parsed } = await parse(document);
    expect(parsed!.servers().all()[0].security().length).toBeGreaterThan(0);
  });

  it('is refused by the parser when broken (the check is not vacuous)', async () => {
    const broken = asyncApiDocument() as { operations: Record<string, { channel: { $ref: string } }> };
    broken.operations.publishTailEvents.channel.$ref = '#/channels/noSuchChannel';
    expect((await parse(broken)).errors).not.toEqual([]);
  });
});
