import { ZPagination, ZQueryBoolean } from "@hisob/kernel/schema";
import { z } from "zod";

/** Entities and actions are short snake_case words (see the services' `audit(...)` calls). */
const ZWord = z
  .string()
  .trim()
  .max(64)
  .regex(/^[a-z][a-z0-9_]*$/, { message: "must be a lowercase word like user or sign_in" });

/** Who (userId), what (entity, entityId, action), when (from, to): shared by the list and its export. */
export const ZAuditFilters = z.object({
  userId: z.uuid().optional(),
  entity: ZWord.optional(),
  entityId: z.string().trim().min(1).max(128).optional(),
  action: ZWord.optional(),
  /** Inclusive lower bound (ISO date-time with an offset). */
  from: z.iso.datetime({ offset: true }).optional(),
  /** Exclusive upper bound. */
  to: z.iso.datetime({ offset: true }).optional(),
  /** Only platform events (true) or only the tenant's (false); platform administrators get both by default. */
  platform: ZQueryBoolean.optional(),
  order: z.enum(["asc", "desc"]).default("desc"),
});
export type TAuditFilters = z.output<typeof ZAuditFilters>;

const toAfterFrom = (query: { from?: string | undefined; to?: string | undefined }) =>
  !query.from || !query.to || new Date(query.from) < new Date(query.to);

/** GET /audit, newest first. */
export const ZListAuditQuery = ZAuditFilters.extend(ZPagination.shape).refine(toAfterFrom, {
  message: "must be after from",
  path: ["to"],
});
export type TListAuditQuery = z.input<typeof ZListAuditQuery>;

export const ZAuditEntryDto = z.object({
  id: z.uuid(),
  /** Null for a platform event (tenants, global currencies, OIDC clients and keys, the CLI). */
  tenantId: z.uuid().nullable(),
  occurredAt: z.iso.datetime(),
  userId: z.uuid().nullable(),
  /** The user's current email, when the user still exists in the caller's tenant. */
  userEmail: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  requestId: z.string().nullable(),
  entity: z.string(),
  entityId: z.string().nullable(),
  action: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  /**
   * Names of the ids this entry mentions (its actor, its target, ids in its changes) as they are now,
   * resolved server-side so a screen need not find them on the same page; unknown ids are absent.
   */
  names: z.record(z.string(), z.string()),
});
export type TAuditEntryDto = z.infer<typeof ZAuditEntryDto>;
