import type { RawTenantTx } from "@hisob/db";
import { newId } from "@hisob/kernel";
import type { OidcClientRecord } from "../clients/clients";
import {
  CLIENT_COLUMNS,
  type ClientColumns,
  clientAndHashedRow,
  clientIdParam,
  toClient,
} from "../token/token-sql";

/*
 * The authorization endpoint's statements on the driver (docs/decisions/0104-transports-ahead-of-their-peers.md):
 * with a session cookie, one transaction in the session's tenant (`db.rawTx.withCredentialTenant`,
 * the tenant looked up by the session's hash) whose first round trip reads the client and the
 * session with its user and tenant, and whose second stores the code and commits. Fixed texts,
 * values as parameters: prepared statements of the connection on PostgreSQL.
 */

const PREPARED = { prepared: true } as const;
/** Storing the code is the transaction's last statement: it commits with it (raw-tenant.ts). */
const COMMITTED = { prepared: true, commit: true } as const;

/** The browser's login session as the authorization endpoint needs it. */
export type SessionRow = {
  id: string;
  tenantId: string;
  userId: string;
  createdAt: Date;
  expiresAt: Date;
  usable: boolean;
};

type Row = ClientColumns & {
  s_id: string | null;
  s_tenant_id: string;
  s_user_id: string;
  s_created_at: Date;
  s_expires_at: Date;
  s_usable: boolean;
};

const READ_CLIENT_AND_SESSION = clientAndHashedRow(
  `a.id AS s_id, a.tenant_id AS s_tenant_id, a.user_id AS s_user_id, a.created_at AS s_created_at,
       a.expires_at AS s_expires_at, u.is_active AND tn.is_active AS s_usable`,
  "sessions",
  "token_hash",
);

/**
 * One row always (LEFT JOINs): the client by id, and the session by its token's hash with whether its
 * user and tenant are active. Only the session's tenant is visible, so another tenant's session is none.
 */
export const readClientAndSession = async (
  tx: RawTenantTx,
  clientId: string,
  sessionHash: string,
): Promise<{ client: OidcClientRecord | null; session: SessionRow | null }> => {
  const [row] = await tx.query<Row>(
    READ_CLIENT_AND_SESSION,
    [clientIdParam(clientId), sessionHash],
    PREPARED,
  );
  if (!row) return { client: null, session: null };
  return {
    client: toClient(row),
    session: row.s_id
      ? {
          id: row.s_id,
          tenantId: row.s_tenant_id,
          userId: row.s_user_id,
          createdAt: row.s_created_at,
          expiresAt: row.s_expires_at,
          usable: row.s_usable,
        }
      : null,
  };
};

const READ_CLIENT = `SELECT ${CLIENT_COLUMNS} FROM oidc_clients c WHERE c.client_id = $1::text`;

/** The client by id (no session to read): one statement, its transaction committed with it. */
export const readClient = async (tx: RawTenantTx, clientId: string): Promise<OidcClientRecord | null> => {
  const [row] = await tx.query<ClientColumns>(READ_CLIENT, [clientIdParam(clientId)], COMMITTED);
  return toClient(row);
};

const INSERT_CODE = `INSERT INTO oidc_authorization_codes (id, tenant_id, code_hash, client_id, user_id, session_id,
       redirect_uri, scope, nonce, code_challenge, code_challenge_method, auth_time, expires_at)
     VALUES ($1::uuid, $2::uuid, $3::text, $4::text, $5::uuid, $6::uuid, $7::text, $8::text, $9::text,
       $10::text, $11::text, $12::timestamptz, $13::timestamptz)`;

export type NewCode = {
  tenantId: string;
  codeHash: string;
  clientId: string;
  userId: string;
  sessionId: string;
  redirectUri: string;
  scope: string;
  nonce: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  authTime: Date;
  expiresAt: Date;
};

/** Stores an authorization code (by its hash) and commits, in the same round trip. */
export const insertCodeAndCommit = async (tx: RawTenantTx, code: NewCode): Promise<void> => {
  await tx.query(
    INSERT_CODE,
    [
      newId(),
      code.tenantId,
      code.codeHash,
      code.clientId,
      code.userId,
      code.sessionId,
      code.redirectUri,
      code.scope,
      code.nonce,
      code.codeChallenge,
      code.codeChallengeMethod,
      code.authTime.toISOString(),
      code.expiresAt.toISOString(),
    ],
    COMMITTED,
  );
};
