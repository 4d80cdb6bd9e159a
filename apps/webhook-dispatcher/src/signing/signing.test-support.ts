import { randomBytes } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';

/** A 64-byte random secret as 128 hex characters (within the 64–1024 range). */
export const newSecret = (): string => randomBytes(64).toString('hex');

export const jwtService = new JwtService();

export const sampleBody = (): string =>
  JSON.stringify({
    eventId: '5b8f0c1e-8d0a-4f7e-9d43-2f1c2b7a9e10',
    eventName: 'Product.RiskAssessmentExecuted',
    occurredAt: '2025-01-02T03:04:05.000Z',
    domain: 'acme',
    data: { score: 42, tail: 'N123AB', note: 'Zürich ✈' },
  });
