// Token endpoint errors are RFC 6749 section 5.2 bodies ({error, error_description}), not
// the service's error body: OAuth clients parse them.
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'server_error'
  | 'temporarily_unavailable';

const STATUS: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  server_error: 500,
  temporarily_unavailable: 503,
};

export class OAuthError extends Error {
  status: number;
  headers: Record<string, string> = {};

  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    options: { status?: number; headers?: Record<string, string> } = {},
  ) {
    super(description);
    this.status = options.status ?? STATUS[error];
    Object.assign(this.headers, options.headers);
  }

  body(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}
