import { setTimeout } from 'node:timers/promises';
import { Body, Controller, Headers, HttpCode, Ip, Post } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiProperty, ApiServiceUnavailableResponse, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { GatewayConfig } from '../../config/gateway.config';
import { Unauthorized, ValidationProblem } from '../../problems/domain/problem';
import { UnsupportedGrantType } from '../../problems/domain/oauth-error';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, AccessTokenClaims } from '../domain/access-token';
import { Public } from '@tailsync/service-kit';
import { UNKNOWN_ACCOUNT_HASH, verifySecret } from '../domain/secret-hash';
import { clientAddressKey, clientKey, FailureKey, FailureLimit, tokenAddressKey } from '../infrastructure/failure-limit';
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
 * are problems with RFC 6749's `error` and `error_description` beside them (see problems/domain/oauth-error).
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
  @ApiTooManyRequestsResponse({ description: 'Too many failed attempts from this address, or for this client id from this address, in the last minute; see Retry-After. Failures for a client id from many addresses only slow its answers (at most 3 s).' })
  @ApiServiceUnavailableResponse({ description: 'Too many sign-ins are being checked at once; see Retry-After.' })
  async token(@Body() body: Record<string, unknown> | undefined, @Ip() address: string, @Headers('authorization') authorization?: string): Promise<TokenView> {
    const form = body ?? {};
    if (form.grant_type === undefined || form.grant_type === '') throw new ValidationProblem({ grant_type: ['grant_type is required.'] });
    if (form.grant_type !== 'client_credentials') throw new UnsupportedGrantType();
    const fromAddress = tokenAddressKey(address);
    const credentials = await this.refusing(fromAddress, () => credentialsOf(form, authorization));
    // The block is per address and per (client id, address): another account of the domain, which
    // sees the client id, cannot lock the real client out from elsewhere; from many addresses it only slows it.
    const attempt = await this.failures.attempt({
      blocking: [fromAddress, clientAddressKey(credentials.id, address)],
      slowing: [clientKey(credentials.id)],
    });
    if (attempt.delayMs > 0) await setTimeout(attempt.delayMs);
    // An id we could not have issued is not looked up (it might not even be storable text).
    const account = CLIENT_ID.test(credentials.id) ? await this.accounts.find(credentials.id) : null;
    let matches: boolean;
    try {
      matches = await this.hashing.run(async () => verifySecret(credentials.secret, account?.secretHash ?? (await UNKNOWN_ACCOUNT_HASH)));
    } catch (error) {
      await attempt.withdraw(); // never checked (the pool was full): not a failure
      throw error;
    }
    if (!account || !matches || account.status !== 'active') {
      await attempt.failed();
      throw new Unauthorized(account && matches ? 'The service account is disabled.' : 'Unknown client or wrong secret.');
    }
    await attempt.withdraw();
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

  /** Runs `step`; a 401 it throws counts as a failure from the address (429 instead once it is at its limit). */
  private async refusing<T>(fromAddress: FailureKey, step: () => T): Promise<T> {
    try {
      return step();
    } catch (error) {
      if (error instanceof Unauthorized) await this.failures.checkNow([fromAddress], () => false);
      throw error;
    }
  }
}

/** The shape of every client id this gateway issues (see ServiceAccountsController). */
const CLIENT_ID = /^sa_[0-9a-f]{24}$/;

/** The client id and secret, from HTTP Basic or the body; a 401 when either is missing. */
function credentialsOf(form: Record<string, unknown>, authorization: string | undefined): { id: string; secret: string } {
  const basic = parseBasic(authorization);
  const id = basic?.id ?? form.client_id;
  const secret = basic?.secret ?? form.client_secret;
  if (typeof id !== 'string' || typeof secret !== 'string' || !id || !secret) throw new Unauthorized('client_id and client_secret are required.');
  return { id, secret };
}

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
