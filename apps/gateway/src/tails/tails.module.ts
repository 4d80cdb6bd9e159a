import { Module } from '@nestjs/common';
import { TailsController } from './interface/tails.controller';

/** The tail endpoints; tail-sync decides and stores, called over gRPC. */
@Module({ controllers: [TailsController] })
export class TailsModule {}
