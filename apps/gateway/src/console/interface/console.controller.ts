import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '@tailsync/service-kit';
import { isAdminToken } from '../../auth/domain/admin-token';
import { GatewayConfig } from '../../config/gateway.config';
import { NotFound, Unauthorized } from '../../problems/domain/problem';
import { NoStore } from '../../http/no-store';
import { adminAddressKey, FailureLimit } from '../../auth/infrastructure/failure-limit';
import { ConsoleAsset, loadConsoleAssets, PUBLIC_ASSETS } from '../infrastructure/console-assets';
import { sendConsoleFile } from './console-headers';
import { ActiveSessions } from '../../auth/infrastructure/active-sessions';
import { ConsoleSessions, CSRF_HEADER, SESSION_COOKIE, SESSION_LIFETIME_MS } from '../../auth/domain/console-session';

export class SignInDto {
  @IsString({ message: 'token is required.' })
  @MaxLength(1000, { message: 'token is too long.' })
  token: string;
}

/**
 * The operators' console: one HTML page and its ES modules, all served from here (no network at
 * run time). It acts only through the documented /admin/ endpoints, signed in by a session cookie.
 */
@ApiExcludeController()
@Public()
@Controller('console')
export class ConsoleController {
  private readonly assets = loadConsoleAssets();

  constructor(
    private readonly config: GatewayConfig,
    private readonly sessions: ConsoleSessions,
    private readonly active: ActiveSessions,
    private readonly failures: FailureLimit,
  ) {}

  @Get()
  async page(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    this.requireConsole();
    this.send(reply, (await this.active.of(req)) ? 'console.html' : 'sign-in.html');
  }

  @Get('assets/*')
  async asset(@Req() req: FastifyRequest, @Param('*') name: string, @Res() reply: FastifyReply): Promise<void> {
    this.requireConsole();
    if (!PUBLIC_ASSETS.has(name) && !(await this.active.of(req))) throw new Unauthorized('Sign in to the console first.');
    this.send(reply, name);
  }

  /** The signed-in page's CSRF token, which state-changing /admin/ calls carry in X-CSRF-Token. */
  @Get('session')
  @NoStore()
  async session(@Req() req: FastifyRequest): Promise<{ csrfToken: string; expiresAt: string }> {
    this.requireConsole();
    const session = await this.active.of(req);
    if (!session) throw new Unauthorized('Sign in to the console first.');
    return { csrfToken: this.sessions.csrfToken(session), expiresAt: new Date(session.expiresAtMs).toISOString() };
  }

  @Post('session')
  @HttpCode(204)
  @NoStore()
  async signIn(@Req() req: FastifyRequest, @Body() body: SignInDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const expected = this.requireConsole();
    // A page of another site must not sign a browser in (login CSRF): the browser names the page's origin.
    if (!sameOrigin(req)) throw new Unauthorized('Sign in from the console page.');
    if (!(await this.failures.checkNow([adminAddressKey(req.ip)], () => isAdminToken(body.token, expected)))) throw new Unauthorized('That is not the admin token.');
    const { cookieValue: value } = this.sessions.issue(Date.now());
    void reply.header('Set-Cookie', cookie(req, value, SESSION_LIFETIME_MS / 1000));
  }

  @Delete('session')
  @HttpCode(204)
  async signOut(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    this.requireConsole();
    const session = await this.active.of(req);
    if (session) {
      if (!this.sessions.isCsrfToken(session, req.headers[CSRF_HEADER] as string | undefined)) throw new Unauthorized('The CSRF token is missing.');
      await this.active.signOut(session);
    }
    void reply.header('Set-Cookie', cookie(req, '', 0));
  }

  private requireConsole(): string {
    if (!this.config.ADMIN_TOKEN) throw new NotFound('No such endpoint.');
    return this.config.ADMIN_TOKEN;
  }

  private send(reply: FastifyReply, name: string): void {
    const asset: ConsoleAsset | undefined = this.assets.get(name);
    if (!asset) throw new NotFound('No such console file.');
    sendConsoleFile(reply, asset.contentType, asset.body);
  }
}

function overHttps(req: FastifyRequest): boolean {
  const forwarded = req.headers['x-forwarded-proto'];
  const proto = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0].trim();
  return (proto ?? req.protocol) === 'https';
}

function sameOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true; // not a browser's cross-site request: browsers send Origin on every POST
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

/** HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Secure over HTTPS. */
function cookie(req: FastifyRequest, value: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${overHttps(req) ? '; Secure' : ''}`;
}
