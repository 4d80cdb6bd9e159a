import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiProperty, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { GatewayConfig } from '../config/gateway.config';
import { Unauthorized, ValidationProblem } from '../problems/problem';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, AccessTokenClaims } from './access-token';
import { Public } from '@tailsync/service-kit';
import { verifySecret } from './secret-hash';
import { ServiceAccountsStore } from './service-accounts.store';

export class TokenRequestDto {
  @ApiProperty({ example: 'client_credentials' }) grant_type: string;
  @ApiProperty({ required: false }) client_id?: string;
  @ApiProperty({ required: false }) client_secret?: string;
}

export class TokenView {
  @ApiProperty() access_token: string;
  @ApiProperty({ example: 'Bearer' }) token_type: 'Bearer';
  @ApiProperty({ example: 3600 }) expires_in: number;
}

/** OAuth2 client credentials (RFC 6749 §4.4): form-encoded or JSON body, or HTTP Basic. */
@ApiTags('Auth')
@Public()
@Controller('oauth/token')
export class OAuthTokenController {
  constructor(
    private readonly accounts: ServiceAccountsStore,
    private readonly jwt: JwtService,
    private readonly config: GatewayConfig,
  ) {}

  @Post()
  @HttpCode(200)
  // Documented as RFC 6749 says (a form); a JSON body is accepted too. One media type keeps
  // generated clients simple (openapi-python-client 0.29 cannot build two bodies of one schema).
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: TokenRequestDto, description: 'The RFC 6749 parameters as a form; the same fields as a JSON body are accepted too.' })
  @ApiOkResponse({ type: TokenView })
  @ApiUnauthorizedResponse({ description: 'Unknown client, wrong secret, disabled account, or no credentials.' })
  async token(@Body() body: Record<string, unknown> | undefined, @Headers('authorization') authorization?: string): Promise<TokenView> {
    const form = body ?? {};
    if (form.grant_type !== 'client_credentials') {
      throw new ValidationProblem({ grant_type: ['grant_type must be client_credentials.'] });
    }
    const basic = parseBasic(authorization);
    const clientId = basic?.id ?? form.client_id;
    const clientSecret = basic?.secret ?? form.client_secret;
    if (typeof clientId !== 'string' || typeof clientSecret !== 'string' || !clientId || !clientSecret) {
      throw new Unauthorized('client_id and client_secret are required.');
    }
    const account = await this.accounts.find(clientId);
    if (!account || !(await verifySecret(clientSecret, account.secretHash))) throw new Unauthorized('Unknown client or wrong secret.');
    if (account.status !== 'active') throw new Unauthorized('The service account is disabled.');
    const claims: AccessTokenClaims = { sub: account.clientId, dom: account.domain };
    const access_token = await this.jwt.signAsync(claims, {
      secret: this.config.JWT_SECRET,
      algorithm: 'HS256',
      expiresIn: this.config.ACCESS_TOKEN_TTL_SECONDS,
      issuer: ACCESS_TOKEN_ISSUER,
      audience: ACCESS_TOKEN_AUDIENCE,
    });
    return { access_token, token_type: 'Bearer', expires_in: this.config.ACCESS_TOKEN_TTL_SECONDS };
  }
}

function parseBasic(header?: string): { id: string; secret: string } | null {
  if (!header?.startsWith('Basic ')) return null;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  // RFC 6749 §2.3.1: id and secret are form-urlencoded inside Basic.
  return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
}
