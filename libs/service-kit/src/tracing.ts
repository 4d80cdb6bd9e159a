/**
 * Tracing's start, kept apart from the rest of the kit: an app imports it before anything else,
 * so the instrumentations are in place before the libraries they patch are first required.
 */
export { startTracing, stopTracing, type TracedLibrary } from './observability/tracing';
