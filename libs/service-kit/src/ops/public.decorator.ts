import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'tailsync:public';

/** Marks an endpoint that needs no access token (token endpoint, version, docs, health, metrics). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);
