import { pendingCallerCheck } from "./caller-check";
import { SCOPE_STATEMENT_PREFIX } from "./deferred-begin";
import { type CallerRow, toResolvedCaller } from "./resolved-caller";
import type { DbRole } from "./roles";

const TOKEN_HASH = /^[0-9a-f]{64}$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The statement that scopes a transaction to a role (and a tenant), shared by `withTenant` (Prisma)
 * and `rawTenant` (the driver): `app.tenant_id` and the role as transaction-local settings, and, when
 * the request's caller came from the in-process cache, the check that confirms it in the same
 * statement (caller-check.ts). It is written with literals so that it can travel with the BEGIN in
 * one simple-protocol round trip; every value is checked first: the tenant is a UUID, the role one of
 * ours, a token hash 64 hex digits. `settings`: further transaction-local settings, as fixed
 * `set_config(…, true)` expressions of the caller's (raw-tenant.ts). `accept` hears the statement's first row.
 */
export const scopeStatement = (
  role: DbRole,
  tenantId: string | null,
  settings: readonly string[] = [],
): {
  text: string;
  checksCaller: boolean;
  accept(row: (Partial<CallerRow> & { scoped?: unknown }) | undefined): void;
} => {
  if (tenantId !== null && !UUID.test(tenantId))
    throw new Error(`A tenant scope needs a UUID, got "${tenantId}"`);
  const scope = [
    `set_config('app.tenant_id', '${tenantId ?? ""}', true)`,
    `set_config('role', '${role}', true)`,
    ...settings,
  ].join(", ");
  const check = tenantId ? pendingCallerCheck(tenantId) : undefined;
  if (
    check &&
    (!TOKEN_HASH.test(check.tokenHash) || !check.kinds.every((kind) => kind === "session" || kind === "oidc"))
  )
    throw new Error("A caller check needs a SHA-256 token hash and known kinds");
  // A cached caller is confirmed in the same statement. The function is evaluated (as the owner,
  // SECURITY DEFINER) before the select list switches the role; the LEFT JOIN keeps the one row,
  // so the settings apply even when it finds nothing.
  const text = check
    ? `${SCOPE_STATEMENT_PREFIX}SELECT ${scope}, c.* FROM (SELECT 1) AS one
             LEFT JOIN LATERAL hisob_resolve_caller('${check.tokenHash}', '${check.kinds.join(",")}') AS c ON true`
    : `${SCOPE_STATEMENT_PREFIX}SELECT ${scope}`;
  return {
    text,
    checksCaller: check !== undefined,
    accept: (row) => {
      if (!check) return;
      check.accept(row?.kind ? toResolvedCaller(row as CallerRow) : null);
      check.verified = true;
    },
  };
};
