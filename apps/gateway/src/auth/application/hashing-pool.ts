import { Injectable } from '@nestjs/common';
import pLimit from 'p-limit';
import { GatewayConfig } from '../../config/gateway.config';
import { ServiceUnavailable } from '../../problems/domain/problem';

/**
 * Client-secret hashing (scrypt: ~60 ms of a libuv thread each) at most AUTH_HASH_CONCURRENCY at
 * once, so a flood of token requests cannot take every thread from DNS, files and other crypto;
 * when AUTH_HASH_QUEUE requests already wait, the next one is told to come back (503).
 */
@Injectable()
export class HashingPool {
  private readonly limit: pLimit.Limit;

  constructor(private readonly config: GatewayConfig) {
    this.limit = pLimit(config.AUTH_HASH_CONCURRENCY);
  }

  run<T>(hash: () => Promise<T>): Promise<T> {
    if (this.limit.activeCount >= this.config.AUTH_HASH_CONCURRENCY && this.limit.pendingCount >= this.config.AUTH_HASH_QUEUE) {
      throw new ServiceUnavailable('Too many sign-ins are being checked; try again shortly.');
    }
    return this.limit(hash);
  }
}
