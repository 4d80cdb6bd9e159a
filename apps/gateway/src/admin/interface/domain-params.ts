import { ApiProperty } from '@nestjs/swagger';
import { IsString, IsUUID, Matches } from 'class-validator';
import { DOMAIN_MESSAGE, DOMAIN_PATTERN } from '../../http/domain-name';
import { IsSigningKeyId } from '../../webhooks/interface/dto/subscription.dto';


/** `{domain}` in an admin path. */
export class DomainParams {
  @ApiProperty({ example: 'acme', pattern: DOMAIN_PATTERN.source })
  @IsString({ message: DOMAIN_MESSAGE })
  @Matches(DOMAIN_PATTERN, { message: DOMAIN_MESSAGE })
  domain: string;
}

/** `{domain}` and `{id}` of one delivery. */
export class DeliveryParams extends DomainParams {
  @ApiProperty()
  @IsString()
  id: string;
}

/** `{domain}` and `{backfillId}` of one backfill job. */
export class DomainBackfillParams extends DomainParams {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'backfillId must be a UUID.' })
  backfillId: string;
}

/** `{domain}` and `{kid}` of one of its signing keys. */
export class DomainSigningKeyParams extends DomainParams {
  @IsSigningKeyId()
  kid: string;
}
