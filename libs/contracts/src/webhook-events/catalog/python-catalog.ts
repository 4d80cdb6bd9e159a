import type { JsonSchema, JsonType } from '../../kafka/json-schema';
import { callbackDataSchema, callbackDataSchemaName, callbackSchema, callbackSchemaName } from '../callback-schema';
import type { WebhookEventType } from '../webhook-event-type';
import { nestedName, schemaProperties, schemaTypes } from './schema-subset';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const KEYWORDS = new Set(['False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield']);

/** Collects the module's definitions, each before its first use (Python evaluates them in order). */
class PythonModule {
  readonly definitions: string[] = [];
  readonly typing = new Set<string>();
  /** Schemas already named (by identity): referred to by that name. */
  readonly named = new Map<JsonSchema, string>();

  use(name: string): string {
    this.typing.add(name);
    return name;
  }

  /** The Python type of a schema; an object with properties becomes a TypedDict named `name`. */
  type(schema: JsonSchema, name: string): string {
    const known = this.named.get(schema);
    if (known) return known;
    if (schema.const !== undefined) return `${this.use('Literal')}[${JSON.stringify(schema.const)}]`;
    if (schema.enum) return `${this.use('Literal')}[${schema.enum.map((value) => (value === null ? 'None' : JSON.stringify(value))).join(', ')}]`;
    const types = schemaTypes(schema, name);
    if (types.length === 0) return this.use('Any');
    const options = types.map((type) => this.typeOf(type, schema, name));
    return options.length === 1 ? options[0] : `${this.use('Union')}[${options.join(', ')}]`;
  }

  private typeOf(type: JsonType, schema: JsonSchema, name: string): string {
    switch (type) {
      case 'string':
        return 'str';
      case 'integer':
        return 'int';
      case 'number':
        return 'float';
      case 'boolean':
        return 'bool';
      case 'null':
        return 'None';
      case 'array':
        return `${this.use('List')}[${schema.items ? this.type(schema.items, `${name}Item`) : this.use('Any')}]`;
      case 'object':
        if (!schema.properties) {
          const values = typeof schema.additionalProperties === 'object' ? this.type(schema.additionalProperties, `${name}Value`) : this.use('Any');
          return `${this.use('Dict')}[str, ${values}]`;
        }
        this.typedDict(schema, name);
        return name;
    }
  }

  /**
   * A TypedDict with the JSON's own member names. Optional members go in a `total=False` class
   * over a base of the required ones (`NotRequired` needs Python 3.11; the package supports 3.10).
   */
  typedDict(schema: JsonSchema, name: string): void {
    const members = schemaProperties(schema).map((member) => ({ ...member, type: this.type(member.schema, nestedName(name, member.name)) }));
    const required = members.filter((member) => member.required);
    const optional = members.filter((member) => !member.required);
    this.use('TypedDict');
    if (members.some((member) => !IDENTIFIER.test(member.name) || KEYWORDS.has(member.name))) {
      // Member names that are no Python identifiers need the functional form; the class joins its two halves.
      const fields = (list: typeof members) => list.map((member) => `${JSON.stringify(member.name)}: ${member.type}`).join(', ');
      this.definitions.push(
        `_${name}Required = TypedDict(${JSON.stringify(`_${name}Required`)}, {${fields(required)}})\n`,
        `_${name}Optional = TypedDict(${JSON.stringify(`_${name}Optional`)}, {${fields(optional)}}, total=False)\n`,
        `class ${name}(_${name}Required, _${name}Optional):\n${schema.description ? `    """${pythonDocText(schema.description)}"""\n` : '    pass\n'}`,
      );
      return;
    }
    const body = (list: typeof members) => list.map((member) => `    ${member.name}: ${member.type}\n${member.schema.description ? `    """${pythonDocText(member.schema.description)}"""\n` : ''}`).join('');
    const docstring = schema.description ? `    """${pythonDocText(schema.description)}"""\n\n` : '';
    if (optional.length === 0 || required.length === 0) {
      this.definitions.push(`class ${name}(TypedDict${required.length === 0 ? ', total=False' : ''}):\n${docstring}${body(members)}`);
    } else {
      this.definitions.push(`class _${name}Required(TypedDict):\n${body(required)}`, `class ${name}(_${name}Required, total=False):\n${docstring}${body(optional)}`);
    }
  }
}

/** A description as docstring text: Markdown backticks doubled (reStructuredText's literal) and no closing quotes. */
function pythonDocText(description: string): string {
  return description.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/`([^`]+)`/g, '``$1``');
}

/**
 * The Python package's event catalog (`tailsync_webhooks/events.py`): per event type a TypedDict
 * of its callback body (the JSON's own member names, so `json.loads` output fits it unchanged) and
 * its `data`, and `TailsyncEvent`, their union discriminated by `eventName` (type checkers narrow
 * on `event["eventName"] == …`), with the names at run time for `parse_event`.
 */
export function pythonCatalog(types: readonly WebhookEventType[], generatedBy: string): string {
  const module = new PythonModule();
  for (const type of types) {
    const data = callbackDataSchema(type);
    const dataName = callbackDataSchemaName(type);
    const dataType = module.type(data, dataName);
    // an open `data` is an alias (`Dict[str, Any]`), so the callback still names its type
    if (dataType !== dataName) module.definitions.push(`${dataName} = ${dataType}\n${data.description ? `"""${pythonDocText(data.description)}"""\n` : ''}`);
    module.named.set(data, dataName);
    module.typedDict(callbackSchema(type), callbackSchemaName(type));
  }
  const names = types.map((type) => JSON.stringify(type.name));
  const callbacks = types.map((type) => callbackSchemaName(type));
  module.use('Literal');
  module.use('Tuple');
  module.use('Union');
  return [
    `"""Typed webhook events: ${pythonDocText(generatedBy)}"""\n`,
    `from typing import ${[...module.typing].sort().join(', ')}\n`,
    ...module.definitions,
    `TailsyncEvent = Union[${callbacks.join(", ")}]\n"""${pythonDocText("Every callback body a subscription may receive, told apart by `eventName`.")}"""\n`,
    `TailsyncEventName = Literal[${names.join(", ")}]\n"""${pythonDocText("The event names, as subscriptions list them in `eventNames`.")}"""\n`,
    `TAILSYNC_EVENT_NAMES: Tuple[str, ...] = (${names.join(", ")},)\n"""${pythonDocText("The same names at run time: what `parse_event` accepts.")}"""\n`,
  ].join('\n\n');
}
