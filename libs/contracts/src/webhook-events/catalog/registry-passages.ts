import type { WebhookEventType } from '../webhook-event-type';
import { WEBHOOK_EVENT_TYPES } from '../webhook-event-types';
import { registryTexts, type RegistryTexts } from '../registry-texts';
import type { CatalogFile } from './catalog-files';

/**
 * A passage of a file written by hand that names the event types (a `.proto` comment, alert
 * rules, the operators' activity contract): `npm run generate:webhook-events` rewrites the lines
 * between its two marker comments, so a new event type never leaves one naming only the first.
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
];

const BEGIN = (id: string) => `generated from the event-type registry by \`npm run generate:webhook-events\`: ${id}`;
const END = (id: string) => `end of ${id}`;

/** Whether `line` is the comment `marker` (`//` or `#`, indented as the file needs). */
const isMarker = (line: string, marker: string) => /^\s*(?:\/\/|#) (.*)$/.exec(line)?.[1] === marker;

/** `text` with `passage` as the registry writes it; throws when the file lacks its markers. */
function withPassage(text: string, passage: RegistryPassage, texts: RegistryTexts): string {
  const lines = text.split('\n');
  const begin = lines.findIndex((line) => isMarker(line, BEGIN(passage.id)));
  const end = lines.findIndex((line, at) => at > begin && isMarker(line, END(passage.id)));
  if (begin < 0 || end < 0) throw new Error(`${passage.path} lacks the markers of its generated passage \`${passage.id}\` ("${BEGIN(passage.id)}", "${END(passage.id)}")`);
  return [...lines.slice(0, begin + 1), ...passage.lines(texts), ...lines.slice(end)].join('\n');
}

/** Every file with generated passages, from its current text (`read`) with each passage as the registry writes it. */
export function registryPassageFiles(read: (path: string) => string, types: readonly WebhookEventType[] = WEBHOOK_EVENT_TYPES): CatalogFile[] {
  const texts = registryTexts(types);
  const paths = [...new Set(REGISTRY_PASSAGES.map((passage) => passage.path))];
  return paths.map((path) => ({
    path,
    text: REGISTRY_PASSAGES.filter((passage) => passage.path === path).reduce((text, passage) => withPassage(text, passage, texts), read(path)),
  }));
}
