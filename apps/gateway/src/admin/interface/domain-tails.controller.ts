import { Controller, Get, Param, Query, Req, UseGuards } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { TailView as TailReply } from '@tailsync/contracts';
import { Public } from '@tailsync/service-kit';
import { AdminTokenGuard } from '../../auth/interface/admin-token.guard';
import { ServiceAccountsStore } from '../../auth/infrastructure/service-accounts.store';
import { ValidationProblem } from '../../problems/domain/problem';
import { unlessNotFound } from '../../services/infrastructure/reply';
import type { BudgetedCaller } from '../../services/infrastructure/service-channel';
import { TailSyncClient } from '../../services/infrastructure/tail-sync.client';
import { TailHistoryView } from '../../tails/interface/dto/tail-views';
import { adminCaller } from './admin-caller';
import { DomainParams } from './domain-params';
import { AdminTailHistoryQuery, AdminTailsQuery } from './dto/admin-tails.query';
import { AdminTailsView } from './dto/admin-tail-views';

/** Finds a domain's tails by tail number or by any of its sources' Mapped IDs, and reads a tail's history. */
@ApiTags('Admin')
@ApiBearerAuth()
@ApiBadRequestResponse({ description: 'Validation failed (problem+json with the validation object).' })
@ApiServiceUnavailableResponse({ description: 'tail-sync did not answer in time, or is down; Retry-After: 1.' })
@Public()
@UseGuards(AdminTokenGuard)
@Controller('admin/Domains/:domain/Tails')
export class DomainTailsController {
  constructor(
    private readonly tailSync: TailSyncClient,
    private readonly accounts: ServiceAccountsStore,
  ) {}

  @Get()
  @ApiOperation({ summary: "A domain's tails with this tail number, or mapped by one of its service accounts (deleted ones too) to this Mapped ID." })
  @ApiOkResponse({ type: AdminTailsView })
  async find(@Param() params: DomainParams, @Query() query: AdminTailsQuery, @Req() req: FastifyRequest): Promise<AdminTailsView> {
    const caller = adminCaller(params.domain, req);
    if (query.tailNumber !== undefined) {
      const page = await this.tailSync.list(caller, { tailNumber: query.tailNumber, limit: 500 });
      return { items: page.items.filter((tail) => query.mappedId === undefined || tail.mappings.some((m) => m.mappedId === query.mappedId)) };
    }
    if (query.mappedId !== undefined) return { items: await this.byMappedId(caller, query.mappedId) };
    throw new ValidationProblem({}, ['Give mappedId or tailNumber.']);
  }

  @Get('History')
  @ApiOperation({ summary: "A tail's history (every event, oldest first), named by one of its mappings." })
  @ApiOkResponse({ type: TailHistoryView })
  @ApiNotFoundResponse({ description: 'No tail with that mapping in the domain.' })
  async history(@Param() params: DomainParams, @Query() query: AdminTailHistoryQuery, @Req() req: FastifyRequest): Promise<TailHistoryView> {
    const caller = { ...adminCaller(params.domain, req), source: query.source };
    return this.tailSync.history(caller, query.mappedId);
  }

  /** A Mapped ID belongs to one source: ask as each of the domain's sources, keep what exists, once per tail. */
  private async byMappedId(caller: BudgetedCaller, mappedId: string): Promise<TailReply[]> {
    const sources = await this.accounts.sourcesOf(caller.domain);
    const tails = await Promise.all(sources.map((source) => unlessNotFound(this.tailSync.get({ ...caller, source }, mappedId))));
    const found = new Map<number, TailReply>();
    for (const tail of tails) if (tail) found.set(tail.tailId, { ...tail, mappedId: null });
    return [...found.values()];
  }
}
