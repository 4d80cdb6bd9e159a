import { Inject, Injectable } from '@nestjs/common';
import { PG_POOL } from '@tailsync/service-kit';
import type { FastifyRequest } from 'fastify';
import { Pool } from 'pg';
import { ConsoleSession, ConsoleSessions, cookieValue, SESSION_COOKIE } from '../domain/console-session';

/**
 * Sessions signed in and not signed out. A signed cookie alone would outlive its sign-out if it
 * were copied, so signing out records the session's nonce until it would have expired; every
 * gateway copy reads that table, `gw_console_signed_out` (one indexed lookup per console request,
 * none for integrators).
 */
@Injectable()
export class ActiveSessions {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly sessions: ConsoleSessions,
  ) {}

  /** The request's session, if its cookie is valid and it was not signed out. */
  async of(req: FastifyRequest): Promise<ConsoleSession | null> {
    const session = this.sessions.verify(cookieValue(req.headers.cookie, SESSION_COOKIE), Date.now());
    if (!session) return null;
    const { rowCount } = await this.pool.query('select 1 from gw_console_signed_out where nonce = $1', [session.nonce]);
    return rowCount ? null : session;
  }

  async signOut(session: ConsoleSession): Promise<void> {
    await this.pool.query('delete from gw_console_signed_out where expires_at < now()');
    await this.pool.query('insert into gw_console_signed_out (nonce, expires_at) values ($1, $2) on conflict do nothing', [session.nonce, new Date(session.expiresAtMs)]);
  }
}
