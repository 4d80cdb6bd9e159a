import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ConsoleController } from './interface/console.controller';

/** The operators' console at /console (its pages call the admin API). */
@Module({ imports: [AuthModule], controllers: [ConsoleController] })
export class ConsoleModule {}
