import type { WebhookEventType } from '../webhook-event-type';
import { WEBHOOK_EVENT_TYPES } from '../webhook-event-types';
import { registryTexts, type RegistryTexts } from '../registry-texts';
import type { CatalogFile } from './catalog-files';

/**
 * A passage of a file written by hand that names the event types (a `.proto` comment, alert
 * rules, the operators' activity contract, the console's chart titles, the dispatcher's README):
 * `npm run generate:webhook-events` rewrites the lines between its two marker comments (`//`,
 * `#` or `<!-- -->`), so a new event type never leaves one naming only the first.
 */
interface RegistryPassage {
  /** Relative to the repository root. */
  path: string;
  /** Names the passage in its markers. */
  id: string;
  /** Its lines, indented and commented as the file needs. */
  lines: (texts: RegistryTexts) => string[];
}

const LAGGING = (t: RegistryTexts) =>
  `The dispatcher reads ${t.eventsPlural} slower than they come: add dispatcher copies (up to the topic's partition count) or look for a slow database.`;

export const REGISTRY_PASSAGES: readonly RegistryPassage[] = [
  {
    path: 'libs/contracts/proto/tailsync/v1/webhook_dispatcher.proto',
    id: 'consumer-lag',
    lines: (t) => [`  // Messages of ${t.eventTopics} the dispatcher's group has not committed; absent if unknown.`],
  },
  {
    path: 'libs/contracts/src/admin-activity.ts',
    id: 'events-consumed',
    lines: (t) => [`  /** ${t.EventsAdjective} events consumed for a subscribed domain: each makes a delivery. */`],
  },
  {
    path: 'libs/contracts/src/admin-activity.ts',
    id: 'consumer-lag',
    lines: (t) => [`  /** Messages of ${t.eventTopics} the dispatcher's consumer group has not committed; null if unknown. */`],
  },
  {
    path: 'deploy/prometheus/tailsync-alerts.yml',
    id: 'consumer-lagging',
    lines: (t) => [`          description: "${LAGGING(t)}"`],
  },
  {
    path: 'deploy/prometheus/tailsync-alerts.yml',
    id: 'malformed-events',
    lines: (t) => [
      `          summary: "{{ $value }} malformed ${t.eventsAdjective} events sent to the DLQ in 10 minutes"`,
      `          description: "The producer sends events that fail the contract; they wait in ${t.deadLetterTopics} with the reason in a header."`,
    ],
  },
  {
    path: 'deploy/prometheus/tailsync-alerts.test.yml',
    id: 'consumer-lagging',
    lines: (t) => [`              description: "${LAGGING(t)}"`],
  },
  {
    path: 'apps/gateway/src/console/assets/pages/overview.js',
    id: 'overview-series',
    lines: (t) => [
      `  { title: 'Tails written and ${t.eventsAdjective} events consumed per minute', series: [['tailsWritten', 'Tails written', '#0969da'], ['eventsConsumed', 'Events consumed', '#8250df']] },`,
    ],
  },
  {
    path: 'apps/webhook-dispatcher/README.md',
    id: 'input-topics',
    lines: (t) => [`It consumes ${t.eventsPlural} from ${t.inputTopics}: one input topic per event type of the registry.`],
  },
];

/**
 * Passages that name one type on purpose, the first registered: the default `evt` of the signing
 * library's `sign` (a published package that cannot import the registry).
 */
export const FIRST_TYPE_PASSAGES: readonly RegistryPassage[] = [
  {
    path: 'libs/webhook-signing/src/sign.ts',
    id: 'default-event-name',
    lines: (t) => [`const DEFAULT_EVENT_NAME = '${t.defaultEventName}';`],
  },
];

/** A string of a JSON file that names the event types (no comments there to mark a passage). */
interface RegistryJsonValue {
  path: string;
  /** The object holding the string, found in the parsed document. */
  holder: (document: unknown) => Record<string, unknown> | undefined;
  key: string;
  value: (texts: RegistryTexts) => string;
}

interface GrafanaPanel {
  title?: string;
}

export const REGISTRY_JSON_VALUES: readonly RegistryJsonValue[] = [
  {
    path: 'deploy/grafana/tailsync-dashboard.json',
    holder: (dashboard) =>
      ((dashboard as { panels?: GrafanaPanel[] }).panels ?? []).find((panel) => panel.title === 'Webhook consumer lag by partition') as Record<string, unknown> | undefined,
    key: 'description',
    value: (t) => `${t.EventsAdjective} messages the dispatcher group has not committed yet.`,
  },
];

const BEGIN = (id: string) => `generated from the event-type registry by \`npm run generate:webhook-events\`: ${id}`;
const END = (id: string) => `end of ${id}`;

/** Whether `line` is the comment `marker` (`//`, `#` or `<!-- -->`, indented as the file needs). */
const isMarker = (line: string, marker: string) => /^\s*(?:\/\/ |# |<!-- )(.*?)(?: -->)?$/.exec(line)?.[1] === marker;

/** `text` with `passage` as the registry writes it; throws when the file lacks its markers. */
function withPassage(text: string, passage: RegistryPassage, texts: RegistryTexts): string {
  const lines = text.split('\n');
  const begin = lines.findIndex((line) => isMarker(line, BEGIN(passage.id)));
  const end = lines.findIndex((line, at) => at > begin && isMarker(line, END(passage.id)));
  if (begin < 0 || end < 0) throw new Error(`${passage.path} lacks the markers of its generated passage \`${passage.id}\` ("${BEGIN(passage.id)}", "${END(passage.id)}")`);
  return [...lines.slice(0, begin + 1), ...passage.lines(texts), ...lines.slice(end)].join('\n');
}

/** `text` (JSON) with `value` as the registry writes it; throws when the document lacks its holder. */
function withJsonValue(text: string, value: RegistryJsonValue, texts: RegistryTexts): string {
  const document: unknown = JSON.parse(text);
  const holder = value.holder(document);
  if (!holder || typeof holder[value.key] !== 'string') throw new Error(`${value.path} lacks the string \`${value.key}\` the registry writes`);
  holder[value.key] = value.value(texts);
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** Every file with generated passages, from its current text (`read`) with each passage as the registry writes it. */
export function registryPassageFiles(read: (path: string) => string, types: readonly WebhookEventType[] = WEBHOOK_EVENT_TYPES): CatalogFile[] {
  const texts = registryTexts(types);
  const passages = [...REGISTRY_PASSAGES, ...FIRST_TYPE_PASSAGES];
  const paths = [...new Set([...passages, ...REGISTRY_JSON_VALUES].map((passage) => passage.path))];
  return paths.map((path) => ({
    path,
    text: REGISTRY_JSON_VALUES.filter((value) => value.path === path).reduce(
      (text, value) => withJsonValue(text, value, texts),
      passages.filter((passage) => passage.path === path).reduce((text, passage) => withPassage(text, passage, texts), read(path)),
    ),
  }));
}
