export * from './webhook-event-type';
export * from './webhook-event-types';
export * from './risk-assessment-executed/risk-assessment-executed.event';
export * from './risk-assessment-executed/risk-assessment-executed.schema';
export * from './callback-schema';
export * from './registry-texts';
export * from './catalog';
