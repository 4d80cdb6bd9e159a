import { applyDecorators, Header } from '@nestjs/common';

/**
 * For a response that carries a token or a secret: no cache, shared or private, may keep it
 * (RFC 6749 §5.1 asks for both headers on a token response).
 */
export const NoStore = () => applyDecorators(Header('Cache-Control', 'no-store'), Header('Pragma', 'no-cache'));
