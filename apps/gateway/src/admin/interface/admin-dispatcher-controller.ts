import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '@tailsync/service-kit';
import { AdminTokenGuard } from '../../auth/interface/admin-token.guard';

/** An admin controller over a domain's webhook data, answered by the dispatcher: admin token only, with the problems every such route shares. */
export function AdminDispatcherController(path: string): ClassDecorator {
  return applyDecorators(
    ApiTags('Admin'),
    ApiBearerAuth(),
    ApiBadRequestResponse({ description: 'Validation failed (problem+json with the validation object).' }),
    ApiServiceUnavailableResponse({ description: 'The dispatcher did not answer in time, or is down; Retry-After: 1.' }),
    Public(),
    UseGuards(AdminTokenGuard),
    Controller(path),
  );
}
