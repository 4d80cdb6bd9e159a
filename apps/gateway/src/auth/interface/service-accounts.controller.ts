import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { randomBytes } from 'node:crypto';
import { Public } from '@tailsync/service-kit';
import { NotFound } from '../../problems/domain/problem';
import { NoStore } from '../../http/no-store';
import { AdminTokenGuard } from './admin-token.guard';
import { CreateServiceAccountDto, ServiceAccountsQuery } from './dto/service-account.dto';
import { ServiceAccountCreatedView, ServiceAccountPageView, ServiceAccountView, ServiceAccountWithSecretView } from './dto/service-account-views';
import { decodeListCursor, encodeListCursor } from '../domain/list-cursor';
import { RevokedAccounts } from '../application/revoked-accounts';
import { hashSecret } from '../domain/secret-hash';
import { ServiceAccount, ServiceAccountsStore } from '../infrastructure/service-accounts.store';

const newSecret = () => randomBytes(32).toString('base64url');

@ApiTags('Admin')
@ApiBearerAuth()
@ApiBadRequestResponse({ description: 'Validation failed (problem+json with the validation object).' })
@Public()
@UseGuards(AdminTokenGuard)
@Controller('admin/ServiceAccounts')
export class ServiceAccountsController {
  constructor(
    private readonly store: ServiceAccountsStore,
    private readonly revoked: RevokedAccounts,
  ) {}

  @Post()
  @HttpCode(201)
  @NoStore()
  @ApiOperation({ summary: 'Create a service account; its clientSecret is shown this once.' })
  @ApiCreatedResponse({ type: ServiceAccountCreatedView })
  async create(@Body() dto: CreateServiceAccountDto): Promise<ServiceAccountCreatedView> {
    const clientId = `sa_${randomBytes(12).toString('hex')}`;
    const clientSecret = newSecret();
    await this.store.insert({ clientId, secretHash: await hashSecret(clientSecret), domain: dto.domain, name: dto.name });
    return { clientId, clientSecret, domain: dto.domain, name: dto.name };
  }

  @Get()
  @ApiOperation({ summary: 'Service accounts in creation order, optionally of one domain; page with nextCursor.' })
  @ApiOkResponse({ type: ServiceAccountPageView })
  async list(@Query() query: ServiceAccountsQuery): Promise<ServiceAccountPageView> {
    const limit = query.limit ?? 50;
    const rows = await this.store.page({ domain: query.domain, limit, after: query.cursor === undefined ? undefined : decodeListCursor(query.cursor) });
    const items = rows.slice(0, limit);
    return { items: items.map(view), nextCursor: rows.length > limit ? encodeListCursor(items[items.length - 1].position) : null };
  }

  @Post(':clientId/Disable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Disable an account: no new access token, and its tokens are refused on every gateway copy within 5 s.' })
  @ApiOkResponse({ type: ServiceAccountView })
  @ApiNotFoundResponse({ description: 'No such service account.' })
  async disable(@Param('clientId') clientId: string): Promise<ServiceAccountView> {
    const now = new Date();
    const account = found(await this.store.setStatusRevokingTokens(clientId, 'disabled', now));
    this.revoked.revokeBefore(clientId, now.getTime());
    return view(account);
  }

  @Post(':clientId/Enable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Enable a disabled account again; tokens issued before it was disabled stay refused.' })
  @ApiOkResponse({ type: ServiceAccountView })
  @ApiNotFoundResponse({ description: 'No such service account.' })
  async enable(@Param('clientId') clientId: string): Promise<ServiceAccountView> {
    const account = found(await this.store.setStatus(clientId, 'active'));
    return view(account);
  }

  @Post(':clientId/RotateSecret')
  @HttpCode(200)
  @NoStore()
  @ApiOperation({ summary: 'Replace the client secret; the new one is shown this once. Tokens already issued are refused on every gateway copy within 5 s.' })
  @ApiOkResponse({ type: ServiceAccountWithSecretView })
  @ApiNotFoundResponse({ description: 'No such service account.' })
  async rotateSecret(@Param('clientId') clientId: string): Promise<ServiceAccountWithSecretView> {
    const clientSecret = newSecret();
    const hash = await hashSecret(clientSecret);
    const now = new Date();
    const account = found(await this.store.replaceSecret(clientId, hash, now));
    this.revoked.revokeBefore(clientId, now.getTime());
    return { ...view(account), clientSecret };
  }

  @Delete(':clientId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an account: no new access token, and its tokens are refused on every gateway copy within 5 s.' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: 'No such service account.' })
  async remove(@Param('clientId') clientId: string): Promise<void> {
    const now = new Date();
    found(await this.store.setStatusRevokingTokens(clientId, 'deleted', now));
    this.revoked.revokeBefore(clientId, now.getTime());
  }
}

function found(account: ServiceAccount | null): ServiceAccount {
  if (!account) throw new NotFound('No such service account.');
  return account;
}

function view(account: ServiceAccount): ServiceAccountView {
  return {
    clientId: account.clientId,
    domain: account.domain,
    name: account.name,
    status: account.status === 'disabled' ? 'disabled' : 'active',
    createdAt: account.createdAt.toISOString(),
  };
}
