/** Who is acting: the calling service account's domain and clientId (the mapping source). */
export interface CallerContext {
  domain: string;
  /** clientId of the calling service account: the source of its Mapped IDs and the actor. */
  source: string;
  /** The W3C trace context of the request, kept in the metadata of the events it appends. */
  traceparent?: string;
}

/** The metadata of the events a caller's command appends: its domain, the actor and the request's trace context. */
export function eventMetadataOf(ctx: CallerContext): Record<string, unknown> {
  return ctx.traceparent === undefined ? { domain: ctx.domain, actor: ctx.source } : { domain: ctx.domain, actor: ctx.source, traceparent: ctx.traceparent };
}
