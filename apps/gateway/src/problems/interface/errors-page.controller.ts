import { Public } from '@tailsync/service-kit';
import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';

const SECTIONS: [string, string, string][] = [
  ['validation-errors', 'Validation errors (400, 415)', 'The request body or a parameter failed validation, or the body is not JSON. `fieldErrors` lists the messages by field name; `generalErrors` lists messages not tied to a field; `detail` repeats the first message. In `PUT /Tails/Bulk` each failed entry carries this object and the response stays 200.'],
  ['unauthorized', 'Unauthorized (401)', 'No access token, an expired or invalid one, or wrong client credentials at `/oauth/token`. Get a token with OAuth2 client credentials: `POST /oauth/token` with `grant_type=client_credentials`, `client_id`, `client_secret`.'],
  ['not-found', 'Not found (404, 405)', 'The tail, subscription or delivery does not exist for your domain (another domain\'s data never exists for you), or the endpoint does not exist.'],
  ['conflict', 'Conflict (409)', 'The operation does not apply to the current state: deactivating an inactive tail, reactivating an active one, or changing to a tail number another tail of your domain holds. Nothing was changed.'],
  ['payload-too-large', 'Payload too large (413)', 'The request body exceeds the size limit. Split bulk calls (at most 1,000 tails per call).'],
  ['rate-limited', 'Too many requests (429)', 'Slow down and retry after the number of seconds in the `Retry-After` header.'],
  ['service-unavailable', 'Service unavailable (503)', 'A dependency (Kafka, the event store, the database or a service) did not answer in time. The request may not have been applied; retrying is safe: create-or-map is idempotent per Mapped ID.'],
  ['server-error', 'Internal server error (500)', 'An unexpected error. The `instance` value identifies the log entry; report it to the operators.'],
];

/** The help page every problem's `type` points at. */
@ApiExcludeController()
@Public()
@Controller('docs/errors')
export class ErrorsPageController {
  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  page(): string {
    const body = SECTIONS.map(
      ([id, title, text]) => `<section id="${id}"><h2>${title}</h2><p>${text.replace(/`([^`]+)`/g, '<code>$1</code>')}</p></section>`,
    ).join('\n');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>tailsync errors</title></head><body><h1>tailsync error reference</h1>
<p>Every error response is <code>application/problem+json</code> with <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code>, <code>instance</code>, <code>fieldErrors</code>, <code>generalErrors</code> and <code>isValid: false</code>.</p>
${body}</body></html>`;
  }
}
