import { ApiProperty } from '@nestjs/swagger';

export class ServiceAccountView {
  @ApiProperty() clientId: string;
  @ApiProperty() domain: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['active', 'disabled'], description: 'A disabled account gets no access token, and its tokens are refused.' }) status: 'active' | 'disabled';
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: string;
}

export class ServiceAccountPageView {
  @ApiProperty({ type: [ServiceAccountView] }) items: ServiceAccountView[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as cursor for the next page; null on the last.' }) nextCursor: string | null;
}

export class ServiceAccountCreatedView {
  @ApiProperty() clientId: string;
  @ApiProperty({ description: 'Shown once; only a slow hash is stored.' }) clientSecret: string;
  @ApiProperty() domain: string;
  @ApiProperty() name: string;
}

export class ServiceAccountWithSecretView extends ServiceAccountView {
  @ApiProperty({ description: 'The new secret, shown once; the previous one no longer gets tokens.' }) clientSecret: string;
}
