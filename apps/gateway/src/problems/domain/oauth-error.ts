import { Problem, ValidationProblem } from './problem';

/** The token endpoint: its problems also carry RFC 6749's error members, which OAuth clients read. */
export const TOKEN_PATH = '/oauth/token';

/** RFC 6749 §5.2's codes, and §4.1.2.1's for a server that cannot answer now. */
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'temporarily_unavailable' | 'server_error';

export interface OAuthErrorMembers {
  error: OAuthErrorCode;
  error_description: string;
}

/** A grant other than client credentials: RFC 6749's `unsupported_grant_type`. */
export class UnsupportedGrantType extends ValidationProblem {
  constructor() {
    super({ grant_type: ['grant_type must be client_credentials.'] });
  }
}

/** The `error` and `error_description` a token endpoint problem carries beside its own members. */
export function oauthErrorOf(problem: Problem): OAuthErrorMembers {
  return { error: codeOf(problem), error_description: problem.detail };
}

function codeOf(problem: Problem): OAuthErrorCode {
  if (problem instanceof UnsupportedGrantType) return 'unsupported_grant_type';
  if (problem.status === 401) return 'invalid_client';
  if (problem.status === 429 || problem.status === 503) return 'temporarily_unavailable';
  if (problem.status >= 500) return 'server_error';
  return 'invalid_request';
}
