import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { CreateOrMapOutcome, TailSubmission } from '@tailsync/contracts';
import type { CallerContext } from '../../application/caller-context';
import { PROJECTION_WAITER, READ_YOUR_WRITES_TIMEOUT_MS, type ProjectionWaiter } from '../../application/tail-ports';
import { CreateOrMapUseCase } from './create-or-map.use-case';

/** Create or map tails for one caller, in order and independently (a single PUT is a batch of one). */
export class CreateOrMapTails extends Command<CreateOrMapOutcome[]> {
  constructor(
    readonly context: CallerContext,
    readonly tails: TailSubmission[],
  ) {
    super();
  }
}

/** Decides and stores the tails, then answers once the read model has them (read-your-writes). */
@CommandHandler(CreateOrMapTails)
export class CreateOrMapTailsHandler implements ICommandHandler<CreateOrMapTails, CreateOrMapOutcome[]> {
  constructor(
    private readonly useCase: CreateOrMapUseCase,
    @Inject(PROJECTION_WAITER) private readonly projection: ProjectionWaiter,
  ) {}

  async execute({ context, tails }: CreateOrMapTails): Promise<CreateOrMapOutcome[]> {
    const { results, checkpoint } = await this.useCase.createOrMapMany(context, tails);
    if (checkpoint) await this.projection.waitFor(checkpoint, READ_YOUR_WRITES_TIMEOUT_MS);
    return results;
  }
}
