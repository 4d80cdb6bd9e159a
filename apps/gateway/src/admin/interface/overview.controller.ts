import { Controller, Get, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '@tailsync/service-kit';
import { AdminTokenGuard } from '../../auth/interface/admin-token.guard';
import { DispatcherClient } from '../../services/infrastructure/dispatcher.client';
import { TailSyncClient } from '../../services/infrastructure/tail-sync.client';
import { adminCaller } from './admin-caller';
import { OverviewView } from './dto/overview-views';
import { lastMinutes, minuteSeries } from '../domain/overview-series';

/** Every console showing the overview refreshes it; they share one answer this long. */
const CACHE_MS = 5_000;

/** The console's Overview: the last hour per minute, the readers' lag now, subscriptions to look at. */
@ApiTags('Admin')
@ApiBearerAuth()
@ApiServiceUnavailableResponse({ description: 'A service did not answer in time, or is down; Retry-After: 1.' })
@Public()
@UseGuards(AdminTokenGuard)
@Controller('admin/Overview')
export class OverviewController {
  private cached?: { atMs: number; view: Promise<OverviewView> };

  constructor(
    private readonly tailSync: TailSyncClient,
    private readonly dispatcher: DispatcherClient,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The last hour per minute (whole system and per domain), lags now, and subscriptions disabled or failing.' })
  @ApiOkResponse({ type: OverviewView })
  overview(@Req() req: FastifyRequest): Promise<OverviewView> {
    const now = Date.now();
    if (!this.cached || now - this.cached.atMs >= CACHE_MS) {
      const view = this.build(now, req);
      this.cached = { atMs: now, view };
      view.catch(() => (this.cached = undefined)); // a failure is not kept: the next request asks again
    }
    return this.cached.view;
  }

  private async build(nowMs: number, req: FastifyRequest): Promise<OverviewView> {
    const minutes = lastMinutes(nowMs, 60);
    const caller = adminCaller('*', req);
    const [t, d] = await Promise.all([this.tailSync.activity(caller, minutes[0]), this.dispatcher.activity(caller, minutes[0])]);
    const { total, domains } = minuteSeries(minutes, { tailsWritten: t.tailsWritten, eventsConsumed: d.eventsConsumed, delivered: d.delivered, failed: d.failed, skipped: d.skipped });
    return { generatedAt: new Date(nowMs).toISOString(), minutes, total, domains, lags: t.lags, consumerLag: d.consumerLag, subscriptions: d.attention };
  }
}
