export * from './webhook-event-type';
export * from './webhook-event-types';
export * from './risk-assessment-executed.event';
export * from './callback-schema';
export * from './catalog';
