import { Body, Controller, Headers, HttpCode, Ip, Post } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiProperty, ApiServiceUnavailableResponse, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { GatewayConfig } from '../../config/gateway.config';
import { Unauthorized, ValidationProblem } from '../../problems/domain/problem';
import { UnsupportedGrantType } from '../domain/oauth-error';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, AccessTokenClaims } from '../domain/access-token';
import { Public } from '@tailsync/service-kit';
import { UNKNOWN_ACCOUNT_HASH, verifySecret } from '../domain/secret-hash';
import { clientKey, FailureKey, FailureLimit, tokenAddressKey } from '../infrastructure/failure-limit';
import { HashingPool } from '../application/hashing-pool';
import { NoStore } from '../../http/no-store';
import { ServiceAccountsStore } from '../infrastructure/service-accounts.store';

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

/**
 * OAuth2 client credentials (RFC 6749 §4.4): form-encoded or JSON body, or HTTP Basic. Its errors
 * are problems with RFC 6749's `error` and `error_description` beside them (see oauth-error).
 */
@ApiTags('Auth')
@Public()
@Controller('oauth/token')
export class OAuthTokenController {
  constructor(
    private readonly accounts: ServiceAccountsStore,
    private readonly jwt: JwtService,
    private readonly config: GatewayConfig,
    private readonly failures: FailureLimit,
    private readonly hashing: HashingPool,
  ) {}

  @Post()
  @HttpCode(200)
  @NoStore()
  // Documented as RFC 6749 says (a form); a JSON body is accepted too. One media type keeps
  // generated clients simple (openapi-python-client 0.29 cannot build two bodies of one schema).
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: TokenRequestDto, description: 'The RFC 6749 parameters as a form; the same fields as a JSON body are accepted too.' })
  @ApiOkResponse({ type: TokenView })
  @ApiUnauthorizedResponse({ description: 'Unknown client, wrong secret, disabled account, or no credentials.' })
  @ApiTooManyRequestsResponse({ description: 'Too many failed attempts for this client id or from this address in the last minute; see Retry-After.' })
  @ApiServiceUnavailableResponse({ description: 'Too many sign-ins are being checked at once; see Retry-After.' })
  async token(@Body() body: Record<string, unknown> | undefined, @Ip() address: string, @Headers('authorization') authorization?: string): Promise<TokenView> {
    const form = body ?? {};
    if (form.grant_type === undefined || form.grant_type === '') throw new ValidationProblem({ grant_type: ['grant_type is required.'] });
    if (form.grant_type !== 'client_credentials') throw new UnsupportedGrantType();
    const fromAddress = tokenAddressKey(address);
    await this.failures.refuseIfBlocked([fromAddress]);
    const basic = await this.refusing([fromAddress], () => parseBasic(authorization));
    const clientId = basic?.id ?? form.client_id;
    const clientSecret = basic?.secret ?? form.client_secret;
    if (typeof clientId !== 'string' || typeof clientSecret !== 'string' || !clientId || !clientSecret) {
      await this.failures.recordFailure([fromAddress]);
      throw new Unauthorized('client_id and client_secret are required.');
    }
    const keys = [fromAddress, clientKey(clientId)];
    await this.failures.refuseIfBlocked(keys);
    // An id we could not have issued is not looked up (it might not even be storable text).
    const account = CLIENT_ID.test(clientId) ? await this.accounts.find(clientId) : null;
    const matches = await this.hashing.run(async () => verifySecret(clientSecret, account?.secretHash ?? (await UNKNOWN_ACCOUNT_HASH)));
    if (!account || !matches || account.status !== 'active') {
      await this.failures.recordFailure(keys);
      throw new Unauthorized(account && matches ? 'The service account is disabled.' : 'Unknown client or wrong secret.');
    }
    const claims: AccessTokenClaims = { sub: account.clientId, dom: account.domain, iat_ms: Date.now() };
    const access_token = await this.jwt.signAsync(claims, {
      secret: this.config.JWT_SECRET,
      algorithm: 'HS256',
      expiresIn: this.config.ACCESS_TOKEN_TTL_SECONDS,
      issuer: ACCESS_TOKEN_ISSUER,
      audience: ACCESS_TOKEN_AUDIENCE,
    });
    return { access_token, token_type: 'Bearer', expires_in: this.config.ACCESS_TOKEN_TTL_SECONDS };
  }

  /** Runs `step`; a 401 it throws counts as a failure of `keys`. */
  private async refusing<T>(keys: FailureKey[], step: () => T): Promise<T> {
    try {
      return step();
    } catch (error) {
      if (error instanceof Unauthorized) await this.failures.recordFailure(keys);
      throw error;
    }
  }
}

/** The shape of every client id this gateway issues (see ServiceAccountsController). */
const CLIENT_ID = /^sa_[0-9a-f]{24}$/;

function parseBasic(header?: string): { id: string; secret: string } | null {
  if (!header?.startsWith('Basic ')) return null;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  // RFC 6749 §2.3.1: id and secret are form-urlencoded inside Basic; a malformed escape is a wrong credential.
  try {
    return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    throw new Unauthorized('The HTTP Basic credentials are not form-urlencoded.');
  }
}
