import { loadSync } from '@grpc/proto-loader';
import { TAIL_PROPERTIES, TAIL_PROPERTY_KINDS } from '../tail-properties';
import { PROTO_FILES, PROTO_LOADER_OPTIONS, PROTO_PACKAGE } from './proto-files';

// The .proto must list each field (it is the contract other builds read), so it cannot derive from
// the table of tail properties: this spec fails when the two disagree. The typecheck
// (wire-shapes.ts) compares the names; this compares kinds and `optional` too.

/** The message's fields that are not tail properties. */
const OWN_FIELDS: Record<string, string[]> = {
  TailSubmission: ['mappedId', 'tailNumber', 'traceparent'],
  TailView: ['tailId', 'mappedId', 'tailNumber', 'status', 'mappings', 'createdAt', 'updatedAt', 'version'],
};

interface MessageDescriptor {
  field: { name: string; type: string }[];
  /** `optional` fields are synthetic oneofs named `_<field>`. */
  oneofDecl: { name: string }[];
}

describe('the tail properties in tail_sync.proto', () => {
  const definition = loadSync(PROTO_FILES.tailSync, PROTO_LOADER_OPTIONS);
  const expected = Object.fromEntries(TAIL_PROPERTIES.map(({ name, value }) => [name, `optional TYPE_${TAIL_PROPERTY_KINDS[value.kind].proto.toUpperCase()}`]));

  it.each(Object.keys(OWN_FIELDS))('%s has one optional field of the matching type per row of TAIL_PROPERTIES, and no other', (message) => {
    const { field, oneofDecl } = (definition[`${PROTO_PACKAGE}.${message}`] as unknown as { type: MessageDescriptor }).type;
    const optional = new Set(oneofDecl.map((o) => o.name));
    const properties = field
      .filter((f) => !OWN_FIELDS[message].includes(f.name))
      .map((f) => [f.name, `${optional.has(`_${f.name}`) ? 'optional ' : ''}${f.type}`]);
    expect(Object.fromEntries(properties)).toEqual(expected);
  });
});
