/**
 * An OAuth 2.0 / OIDC error in the RFC wire format `{ error, error_description }`. Statuses (the
 * spec leaves them open; README "Decisions"): 400 for request and grant errors, 401 with
 * WWW-Authenticate for invalid_client and invalid_token, 500 server_error (masked), 503
 * temporarily_unavailable.
 */
export type OidcErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_token"
  | "access_denied"
  | "login_required"
  | "consent_required"
  | "server_error"
  | "temporarily_unavailable";

const STATUS: Record<OidcErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  unsupported_response_type: 400,
  invalid_scope: 400,
  invalid_token: 401,
  access_denied: 400,
  login_required: 400,
  consent_required: 400,
  server_error: 500,
  temporarily_unavailable: 503,
};

export class OidcError extends Error {
  readonly error: OidcErrorCode;
  readonly status: number;

  constructor(error: OidcErrorCode, description: string) {
    super(description);
    this.name = "OidcError";
    this.error = error;
    this.status = STATUS[error];
  }

  get description(): string {
    return this.message;
  }

  toJSON(): { error: OidcErrorCode; error_description: string } {
    return { error: this.error, error_description: this.message };
  }
}

export const isOidcError = (error: unknown): error is OidcError => error instanceof OidcError;
