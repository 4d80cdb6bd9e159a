import { Inject, Injectable } from '@nestjs/common';
import { Command, CommandHandler } from '@nestjs/cqrs';
import { TailView } from '@tailsync/contracts';
import { TailNotFound } from '../../domain/tail.errors';
import { PROJECTION_WAITER, READ_YOUR_WRITES_TIMEOUT_MS, TAIL_VIEWS, type ProjectionWaiter, type TailViews } from '../../application/tail-ports';
import type { CallerContext } from '../../application/caller-context';
import { ChangeTailUseCase, type TailCommandResult } from './change-tail.use-case';

export class DeactivateTail extends Command<TailView> {
  constructor(readonly context: CallerContext, readonly mappedId: string) {
    super();
  }
}

export class ReactivateTail extends Command<TailView> {
  constructor(readonly context: CallerContext, readonly mappedId: string) {
    super();
  }
}

export class ChangeTailNumber extends Command<TailView> {
  constructor(readonly context: CallerContext, readonly mappedId: string, readonly newTailNumber: string) {
    super();
  }
}

type TailStateCommand = DeactivateTail | ReactivateTail | ChangeTailNumber;

/** The three commands on an existing tail share one flow: decide, store, wait until readable, answer the view. */
// @Injectable() makes SWC emit the constructor's parameter types, which the subclasses inherit.
@Injectable()
abstract class TailStateCommandHandler<C extends TailStateCommand> {
  constructor(
    protected readonly changes: ChangeTailUseCase,
    @Inject(PROJECTION_WAITER) private readonly projection: ProjectionWaiter,
    @Inject(TAIL_VIEWS) private readonly readModel: TailViews,
  ) {}

  protected abstract run(command: C): Promise<TailCommandResult>;

  async execute(command: C): Promise<TailView> {
    const { checkpoint } = await this.run(command);
    if (checkpoint) await this.projection.waitFor(checkpoint, READ_YOUR_WRITES_TIMEOUT_MS);
    const view = await this.readModel.getByMappedId(command.context.domain, command.context.source, command.mappedId);
    if (!view) throw new TailNotFound(command.mappedId);
    return view;
  }
}

@CommandHandler(DeactivateTail)
export class DeactivateTailHandler extends TailStateCommandHandler<DeactivateTail> {
  protected run(c: DeactivateTail) {
    return this.changes.deactivate(c.context, c.mappedId);
  }
}

@CommandHandler(ReactivateTail)
export class ReactivateTailHandler extends TailStateCommandHandler<ReactivateTail> {
  protected run(c: ReactivateTail) {
    return this.changes.reactivate(c.context, c.mappedId);
  }
}

@CommandHandler(ChangeTailNumber)
export class ChangeTailNumberHandler extends TailStateCommandHandler<ChangeTailNumber> {
  protected run(c: ChangeTailNumber) {
    return this.changes.changeTailNumber(c.context, c.mappedId, c.newTailNumber);
  }
}
