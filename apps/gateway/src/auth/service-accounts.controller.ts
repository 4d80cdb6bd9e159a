import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';
import { randomBytes } from 'node:crypto';
import { AdminTokenGuard } from './admin-token.guard';
import { Public } from '@tailsync/service-kit';
import { hashSecret } from './secret-hash';
import { ServiceAccountsStore } from './service-accounts.store';

export class CreateServiceAccountDto {
  @ApiProperty({ example: 'acme', pattern: '^[a-z0-9][a-z0-9-]{0,62}$' })
  @IsString({ message: 'Domain is required.' })
  @Matches(/^[a-z0-9][a-z0-9-]{0,62}$/, { message: 'Domain must be 1 to 63 lowercase letters, digits or hyphens, starting with a letter or digit.' })
  domain: string;

  @ApiProperty({ example: 'Acme EFB' })
  @IsString({ message: 'Name is required.' })
  @Length(1, 200, { message: 'Name must be 1 to 200 characters.' })
  name: string;
}

export class ServiceAccountCreatedView {
  @ApiProperty() clientId: string;
  @ApiProperty({ description: 'Shown once; only a slow hash is stored.' }) clientSecret: string;
  @ApiProperty() domain: string;
  @ApiProperty() name: string;
}

@ApiTags('Admin')
@ApiBearerAuth()
@Public()
@UseGuards(AdminTokenGuard)
@Controller('admin/ServiceAccounts')
export class ServiceAccountsController {
  constructor(private readonly store: ServiceAccountsStore) {}

  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: ServiceAccountCreatedView })
  async create(@Body() dto: CreateServiceAccountDto): Promise<ServiceAccountCreatedView> {
    const clientId = `sa_${randomBytes(12).toString('hex')}`;
    const clientSecret = randomBytes(32).toString('base64url');
    await this.store.insert({ clientId, secretHash: await hashSecret(clientSecret), domain: dto.domain, name: dto.name });
    return { clientId, clientSecret, domain: dto.domain, name: dto.name };
  }
}
