import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse, ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags,
  ApiServiceUnavailableResponse,
} from '@nestjs/swagger';
import { CreateOrMapOutcome, TailPropertiesInput, TailSubmission } from '@tailsync/contracts';
import type { FastifyReply } from 'fastify';
import { Caller } from '../../auth/interface/caller.decorator';
import { GatewayConfig } from '../../config/gateway.config';
import { ValidationProblem } from '../../problems/domain/problem';
import { problemBody } from '../../problems/domain/problem-body';
import type { BudgetedCaller } from '../../services/infrastructure/service-channel';
import { TailSyncClient } from '../../services/infrastructure/tail-sync.client';
import { checkTail, operationIdOf } from './bulk-validation';
import { BulkTailsDto } from './dto/bulk-tails.dto';
import { ChangeTailNumberDto, TailReferenceDto } from './dto/tail-commands.dto';
import { TailListQuery } from './dto/tail-list.query';
import { TailDto } from './dto/tail.dto';
import { BulkResultView, OperationResultView, TailHistoryView, TailPageView, TailView } from './dto/tail-views';

@ApiTags('Tails')
@ApiBearerAuth()
@ApiBadRequestResponse({ description: 'Validation failed (problem+json with the validation object).' })
@ApiServiceUnavailableResponse({ description: 'The service did not answer in time, or is down; Retry-After: 1.' })
@Controller('Tails')
export class TailsController {
  constructor(
    private readonly tailSync: TailSyncClient,
    private readonly config: GatewayConfig,
  ) {}

  @Put()
  @ApiOperation({ summary: 'Create a tail, or add your mapping to the tail of your domain that holds this tail number.' })
  @ApiCreatedResponse({ type: OperationResultView, description: 'Created; Location: /Tails/{mappedId}.' })
  @ApiOkResponse({ type: OperationResultView, description: 'New mapping applied, or no action taken.' })
  async createOrMap(@Caller() caller: BudgetedCaller, @Body() tail: TailDto, @Res({ passthrough: true }) res: FastifyReply): Promise<OperationResultView> {
    const outcome = await this.tailSync.createOrMapOne(caller, submissionOf(tail));
    if (outcome.outcome === 'invalid') throw new ValidationProblem(outcome.fieldErrors);
    if (outcome.outcome === 'created') {
      res.status(201).header('Location', `/Tails/${encodeURIComponent(tail.tailId)}`);
    } else res.status(200);
    return operationResult(tail.tailId, outcome);
  }

  @Put('Bulk')
  @HttpCode(200)
  @ApiOperation({ summary: 'Create or map up to 1,000 tails, applied in order and independently; 200 always.' })
  @ApiOkResponse({ type: BulkResultView })
  async bulk(@Caller() caller: BudgetedCaller, @Body() body: BulkTailsDto): Promise<BulkResultView> {
    const checked = body.tails.map(checkTail);
    const valid = checked.flatMap((c) => (c.ok ? [c.tail] : []));
    const outcomes = valid.length > 0 ? await this.createOrMapMany(caller, valid) : [];
    let next = 0;
    return {
      operations: checked.map((c, i) => {
        const operationId = operationIdOf(body.tails[i]);
        if (!c.ok) return this.invalid(operationId, c.fieldErrors, c.generalErrors);
        const outcome = outcomes[next++];
        return outcome.outcome === 'invalid' ? this.invalid(operationId, outcome.fieldErrors, []) : operationResult(operationId, outcome);
      }),
    };
  }

  @Post('Deactivate')
  @HttpCode(200)
  @ApiOkResponse({ type: TailView })
  @ApiNotFoundResponse()
  @ApiConflictResponse({ description: 'The tail is already inactive.' })
  async deactivate(@Caller() caller: BudgetedCaller, @Body() body: TailReferenceDto): Promise<TailView> {
    return this.tailSync.deactivate(caller, body.tailId);
  }

  @Post('Reactivate')
  @HttpCode(200)
  @ApiOkResponse({ type: TailView })
  @ApiNotFoundResponse()
  @ApiConflictResponse({ description: 'The tail is already active.' })
  async reactivate(@Caller() caller: BudgetedCaller, @Body() body: TailReferenceDto): Promise<TailView> {
    return this.tailSync.reactivate(caller, body.tailId);
  }

  @Post('ChangeTailNumber')
  @HttpCode(200)
  @ApiOkResponse({ type: TailView })
  @ApiNotFoundResponse()
  @ApiConflictResponse({ description: 'Another tail of your domain holds that number.' })
  async changeTailNumber(@Caller() caller: BudgetedCaller, @Body() body: ChangeTailNumberDto): Promise<TailView> {
    return this.tailSync.changeTailNumber(caller, body.tailId, body.newTailNumber);
  }

  @Get()
  @ApiOkResponse({ type: TailPageView })
  async list(@Caller() caller: BudgetedCaller, @Query() query: TailListQuery): Promise<TailPageView> {
    return this.tailSync.list(caller, query);
  }

  @Get(':mappedId')
  @ApiOkResponse({ type: TailView })
  @ApiNotFoundResponse()
  async get(@Caller() caller: BudgetedCaller, @Param('mappedId') mappedId: string): Promise<TailView> {
    return this.tailSync.get(caller, mappedId);
  }

  @Get(':mappedId/History')
  @ApiOkResponse({ type: TailHistoryView })
  @ApiNotFoundResponse()
  async history(@Caller() caller: BudgetedCaller, @Param('mappedId') mappedId: string): Promise<TailHistoryView> {
    return this.tailSync.history(caller, mappedId);
  }

  private createOrMapMany(caller: BudgetedCaller, tails: SubmittedTail[]): Promise<CreateOrMapOutcome[]> {
    return this.tailSync.createOrMap(caller, tails.map(submissionOf));
  }

  private invalid(operationId: string, fieldErrors: Record<string, string[]>, generalErrors: string[]): OperationResultView {
    const { status: _status, ...validation } = problemBody(new ValidationProblem(fieldErrors, generalErrors), this.config.PUBLIC_BASE_URL);
    return { operationId, isValid: false, validation };
  }
}

/** A validated `TailDto`; its optional properties are declared from the table of tail properties. */
type SubmittedTail = TailDto & TailPropertiesInput;

/** The API's `tailId` is the caller's Mapped ID: past this controller it is called so. */
function submissionOf({ tailId, ...tail }: SubmittedTail): TailSubmission {
  return { ...tail, mappedId: tailId };
}

function operationResult(operationId: string, outcome: Exclude<CreateOrMapOutcome, { outcome: 'invalid' }>): OperationResultView {
  return {
    operationId,
    isValid: true,
    tailId: outcome.tailId,
    wasCreated: outcome.outcome === 'created',
    newSourceMappingAdded: outcome.outcome === 'mapped',
  };
}
