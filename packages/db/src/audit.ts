import { newId } from "@hisob/kernel";
import type { Tx } from "./client";
import type { SqlParams } from "./raw-tenant";

/**
 * The audit log's one writer. Services call `audit(tx, ctx, entity, id, action, change?)` inside the
 * transaction that makes the change: a rolled-back change leaves no entry and a committed one always
 * has one. The table is append-only for the application's roles (INSERT/SELECT only, and a trigger
 * refuses UPDATE, DELETE and TRUNCATE), see the migration audit_log.
 */

/** Who acted. A TenantContext fits as is; sign-ins and the CLI build one by hand. */
export type AuditWho = {
  /** The acting tenant; null for a platform event with no tenant (the CLI, an unknown email). */
  tenantId: string | null;
  actor?: { userId: string } | null;
  requestId?: string;
  client?: { ip?: string; userAgent?: string } | undefined;
};

/** Before/after of the fields that changed; `diffFields` builds one from two snapshots. */
export type AuditChange = { before?: Record<string, unknown> | null; after?: Record<string, unknown> | null };

/** Never recorded, whatever a caller passes: credentials, their hashes and keys (`passwordHash`, `clientSecret`, `privateKey`…). */
const SECRET_KEY = /(password|secret|token|hash|key|cipher|ciphertext|jwk|pem)$/i;

const clean = (value: unknown): unknown => {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(clean);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (SECRET_KEY.test(key)) continue;
      if (inner !== undefined) out[key] = clean(inner);
    }
    return out;
  }
  return value;
};

const same = (a: unknown, b: unknown): boolean => JSON.stringify(clean(a)) === JSON.stringify(clean(b));

/**
 * The fields of `after` whose value differs from `before`, as { before, after } with only those
 * fields (a field only in `after` counts as changed). Secrets are dropped here too.
 */
export const diffFields = (
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
): AuditChange => {
  if (!before || !after) return { before: before ?? null, after: after ?? null };
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (key === "updatedAt" || same(before[key], after[key])) continue;
    b[key] = before[key];
    a[key] = after[key];
  }
  return { before: b, after: a };
};

const json = (value: Record<string, unknown> | null | undefined): string | null => {
  if (value === null || value === undefined) return null;
  const cleaned = clean(value) as Record<string, unknown>;
  return Object.keys(cleaned).length === 0 ? null : JSON.stringify(cleaned);
};

/** One entry in the caller's transaction. A plain INSERT (no RETURNING): the writing roles may not read. */
export const audit = async (
  tx: Tx,
  who: AuditWho,
  entity: string,
  entityId: string | null,
  action: string,
  change: AuditChange = {},
): Promise<void> => {
  await tx.$executeRaw`
    INSERT INTO audit_log (id, tenant_id, user_id, ip, user_agent, request_id, entity, entity_id, action, before, after)
    VALUES (${newId()}::uuid, ${who.tenantId}::uuid, ${who.actor?.userId ?? null}::uuid,
      ${who.client?.ip?.slice(0, 64) ?? null}, ${who.client?.userAgent?.slice(0, 512) ?? null},
      ${who.requestId?.slice(0, 128) ?? null}, ${entity}, ${entityId}, ${action},
      ${json(change.before)}::jsonb, ${json(change.after)}::jsonb)`;
};

/** The same actor, recording a platform event (no tenant owns it; the platform tenant reads it). */
export const asPlatformEvent = (who: AuditWho): AuditWho => ({ ...who, tenantId: null });

/**
 * The same entry as a data-modifying step of the caller's own statement (raw-tenant.ts): an
 * `INSERT INTO audit_log … SELECT … FROM <from>`, one entry per row of `from` (the posting's
 * document: a refused posting records nothing). `mergeAfter`: a jsonb SQL expression merged into
 * `after` (facts the statement computes, e.g. the account's currency).
 */
export const stageAudit = (
  params: SqlParams,
  who: AuditWho,
  entity: string,
  entityId: string | null,
  action: string,
  change: AuditChange,
  source: { from: string; mergeAfter?: string },
): string => {
  const after = `${params.add(json(change.after))}::jsonb`;
  return `INSERT INTO audit_log (id, tenant_id, user_id, ip, user_agent, request_id, entity, entity_id, action, before, after)
    SELECT ${params.add(newId())}::uuid, ${params.add(who.tenantId)}::uuid, ${params.add(who.actor?.userId ?? null)}::uuid,
           ${params.add(who.client?.ip?.slice(0, 64) ?? null)}, ${params.add(who.client?.userAgent?.slice(0, 512) ?? null)},
           ${params.add(who.requestId?.slice(0, 128) ?? null)}, ${params.add(entity)}, ${params.add(entityId)}, ${params.add(action)},
           ${params.add(json(change.before))}::jsonb, ${source.mergeAfter ? `${after} || ${source.mergeAfter}` : after}
      FROM ${source.from}`;
};

/**
 * One entry as a step of a statement whose text never changes (a prepared statement): its SQL with
 * the parameters `$first` … `$first+10`, one entry per row of `from` (none when the statement's own
 * change matched nothing). `auditStepValues` gives those parameters, in this order.
 */
export const auditStep = (first: number, from: string): string => {
  const p = (i: number) => `$${first + i}`;
  return `INSERT INTO audit_log (id, tenant_id, user_id, ip, user_agent, request_id, entity, entity_id, action, before, after)
    SELECT ${p(0)}::uuid, ${p(1)}::uuid, ${p(2)}::uuid, ${p(3)}::text, ${p(4)}::text, ${p(5)}::text, ${p(6)}::text,
           ${p(7)}::text, ${p(8)}::text, ${p(9)}::jsonb, ${p(10)}::jsonb
      FROM ${from}`;
};

/** The parameters of `auditStep`, cleaned and cut as `audit` does. */
export const auditStepValues = (
  who: AuditWho,
  entity: string,
  entityId: string | null,
  action: string,
  change: AuditChange = {},
): unknown[] => [
  newId(),
  who.tenantId,
  who.actor?.userId ?? null,
  who.client?.ip?.slice(0, 64) ?? null,
  who.client?.userAgent?.slice(0, 512) ?? null,
  who.requestId?.slice(0, 128) ?? null,
  entity,
  entityId,
  action,
  json(change.before),
  json(change.after),
];
