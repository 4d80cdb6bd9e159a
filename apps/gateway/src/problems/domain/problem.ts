/**
 * Problem responses (`application/problem+json`) carrying the interface's validation object
 * (docs/contract.md, "Errors").
 * `anchor` names the section of `/docs/errors` that `type` points at.
 */
export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly anchor: string,
    readonly title: string,
    readonly fieldErrors: Record<string, string[]> = {},
    readonly generalErrors: string[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(firstMessage(fieldErrors, generalErrors) ?? title);
  }

  get detail(): string {
    return this.message;
  }
}

const firstMessage = (fieldErrors: Record<string, string[]>, generalErrors: string[]): string | undefined =>
  Object.values(fieldErrors).flat()[0] ?? generalErrors[0];

export class ValidationProblem extends Problem {
  constructor(fieldErrors: Record<string, string[]>, generalErrors: string[] = []) {
    super(400, 'validation-errors', 'One or more validation errors occurred.', fieldErrors, generalErrors);
  }
}

export class NotFound extends Problem {
  constructor(detail = 'The resource was not found.') {
    super(404, 'not-found', 'Not found.', {}, [detail]);
  }
}

export class Conflict extends Problem {
  constructor(detail: string) {
    super(409, 'conflict', 'Conflict.', {}, [detail]);
  }
}

export class Unauthorized extends Problem {
  constructor(detail = 'A valid access token is required.') {
    super(401, 'unauthorized', 'Unauthorized.', {}, [detail], { 'WWW-Authenticate': 'Bearer' });
  }
}

export class PayloadTooLarge extends Problem {
  constructor(detail = 'The request body is too large.') {
    super(413, 'payload-too-large', 'Payload too large.', {}, [detail]);
  }
}

export class UnsupportedMediaType extends Problem {
  constructor(detail = 'The request body must be JSON (Content-Type: application/json).') {
    super(415, 'validation-errors', 'Unsupported media type.', {}, [detail]);
  }
}

export class RateLimited extends Problem {
  constructor(retryAfterSeconds: number) {
    super(429, 'rate-limited', 'Too many requests.', {}, ['Too many requests; retry later.'], {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}

export class ServiceUnavailable extends Problem {
  constructor(detail = 'A dependency is unavailable; try again shortly.') {
    super(503, 'service-unavailable', 'Service unavailable.', {}, [detail], { 'Retry-After': '1' });
  }
}

export class InternalError extends Problem {
  constructor() {
    super(500, 'server-error', 'Internal server error.', {}, ['An unexpected error occurred; the instance id identifies it in the logs.']);
  }
}
