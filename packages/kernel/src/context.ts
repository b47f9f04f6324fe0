import type { Locale } from "./locale";

/** Who is acting: a user of the tenant, with the effective permissions resolved at context time. */
export type Actor = {
  userId: string;
  /** Effective permission strings (union over the user's roles and their groups' roles). */
  permissions: ReadonlySet<string>;
  /** The login session behind the request, when there is one (cookie or first-party token). */
  sessionId?: string;
};

/**
 * Everything a service needs to know about the caller. Built once per request by
 * `resolveContext` (any transport) and passed as the first argument of every service method.
 */
export type TenantContext = {
  tenantId: string;
  actor: Actor;
  locale: Locale;
  requestId: string;
  /** Set for the platform admin (the bootstrap admin of the default tenant): may manage tenants. */
  isPlatformAdmin?: boolean;
  /** Where the request came from, for the audit log. */
  client?: { ip: string; userAgent: string };
  /**
   * The request's `Idempotency-Key` (any transport over HTTP): a posting with one is made at most
   * once, a repeat answered with the first answer (packages/db/src/idempotency.ts).
   */
  idempotencyKey?: string;
  /**
   * Aborted when the client goes away before its answer is complete (HTTP: REST, tRPC, downloads):
   * long reads pass it to the database, which then cancels the running statement
   * (docs/decisions/0088-report-filters-and-comparison.md).
   */
  signal?: AbortSignal;
};
