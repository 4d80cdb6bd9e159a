import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { TailHistoryItem, TailListPage, TailListQuery, TailView } from '@tailsync/contracts';
import type { EventStore } from '@tailsync/event-store';
import { tailStreamId } from '../../domain/stream-ids';
import { TailNotFound } from '../../domain/tail.errors';
import { toTailEvent } from '../../domain/tail.events';
import type { CallerContext } from '../caller-context';
import { EVENT_STORE, TAIL_VIEWS, type TailViews } from '../tail-ports';

export class GetTail extends Query<TailView> {
  constructor(readonly context: CallerContext, readonly mappedId: string) {
    super();
  }
}

export class ListTails extends Query<TailListPage> {
  constructor(readonly context: CallerContext, readonly query: TailListQuery) {
    super();
  }
}

export class GetTailHistory extends Query<{ items: TailHistoryItem[] }> {
  constructor(readonly context: CallerContext, readonly mappedId: string) {
    super();
  }
}

@QueryHandler(GetTail)
export class GetTailHandler implements IQueryHandler<GetTail, TailView> {
  constructor(@Inject(TAIL_VIEWS) private readonly readModel: TailViews) {}

  async execute({ context, mappedId }: GetTail): Promise<TailView> {
    const view = await this.readModel.getByMappedId(context.domain, context.source, mappedId);
    if (!view) throw new TailNotFound(mappedId);
    return view;
  }
}

@QueryHandler(ListTails)
export class ListTailsHandler implements IQueryHandler<ListTails, TailListPage> {
  constructor(@Inject(TAIL_VIEWS) private readonly readModel: TailViews) {}

  execute({ context, query }: ListTails): Promise<TailListPage> {
    return this.readModel.list(context.domain, context.source, query);
  }
}

/** The audit trail comes from the event store itself: every event of the tail, oldest first. */
@QueryHandler(GetTailHistory)
export class GetTailHistoryHandler implements IQueryHandler<GetTailHistory, { items: TailHistoryItem[] }> {
  constructor(
    @Inject(TAIL_VIEWS) private readonly readModel: TailViews,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async execute({ context, mappedId }: GetTailHistory): Promise<{ items: TailHistoryItem[] }> {
    const view = await this.readModel.getByMappedId(context.domain, context.source, mappedId);
    if (!view) throw new TailNotFound(mappedId);
    const stored = await this.events.readStream(tailStreamId(view.tailId));
    return {
      items: stored.map((s) => {
        const event = toTailEvent(s);
        return {
          eventId: s.eventId,
          type: event.type,
          occurredAt: event.data.occurredAt,
          version: s.version,
          source: event.data.actor,
          data: visibleData(event.data as unknown as Record<string, unknown>, context.domain),
        };
      }),
    };
  }
}

/** Event data without the envelope fields the item already carries. */
function visibleData(data: Record<string, unknown>, _domain: string): Record<string, unknown> {
  const { eventId: _e, occurredAt: _o, actor: _a, domain: _d, ...rest } = data;
  return rest;
}
