import type { WebhookEventType } from './webhook-event-type';

/** `a`, `a and b`, `a, b and c` (or `or`). */
function listed(items: readonly string[], last: 'and' | 'or' = 'and'): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${last} ${items[items.length - 1]}`;
}

/** What texts say of the registry's event types, written once for every document that names them. */
export interface RegistryTexts {
  /** `risk assessments` */
  eventsPlural: string;
  /** `risk-assessment`, as in "risk-assessment events" */
  eventsAdjective: string;
  /** `Risk-assessment` */
  EventsAdjective: string;
  /** `the risk-assessment topic` */
  eventTopics: string;
  /** `product.risk-assessment-executed` */
  inputTopics: string;
  /** `product.risk-assessment-executed.dlq` */
  deadLetterTopics: string;
  /** What the Test call's token carries as `evt`. */
  testCallEvt: string;
  /** The first registered type's name: what a signed token carries when nothing names the event. */
  defaultEventName: string;
}

/**
 * The texts the API documents, the `.proto`, the alert rules and the operators' contract use to
 * name the event types (the generated passages, and the gateway's descriptions), made from the
 * registry, so a new event type never leaves one naming only the first.
 */
export function registryTexts(types: readonly WebhookEventType[]): RegistryTexts {
  const adjectives = types.map((type) => type.noun.replaceAll(' ', '-'));
  const eventsAdjective = listed(adjectives, 'or');
  return {
    eventsPlural: listed(types.map((type) => `${type.noun}s`)),
    eventsAdjective,
    EventsAdjective: eventsAdjective.charAt(0).toUpperCase() + eventsAdjective.slice(1),
    eventTopics: `the ${listed(adjectives)} topic${types.length === 1 ? '' : 's'}`,
    inputTopics: listed(types.map((type) => type.input.topic)),
    deadLetterTopics: listed(types.map((type) => type.deadLetters.topic), 'or'),
    testCallEvt: types.length === 1 ? types[0].name : 'the first event name your subscription lists',
    defaultEventName: types[0]?.name ?? '',
  };
}
