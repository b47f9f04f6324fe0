import type { Db } from "@hisob/db";
import { AppError, isPlatformOnlyPermission, type TenantContext, validationError } from "@hisob/kernel";
import { z } from "zod";

/**
 * The header that names the organization a platform administrator acts in (decision 0084): the
 * admin screens' organization picker sends it, with the caller's own session.
 */
export const ACT_IN_TENANT_HEADER = "x-tenant-id";

const ZTenantHeader = z.uuid();

/**
 * The context of a caller acting in another organization (decision 0084), or the caller's own one
 * when `tenantId` names their own organization.
 *
 * Only a caller of the platform organization holding `tenants:read:all` (to read) or
 * `tenants:update:all` (to change) may act elsewhere; anyone else gets 403 before the organization is
 * looked up, so the answer tells nothing about which ids exist. An id that names no organization is
 * 404. In the target organization the caller is who they are (their user id, their session: the
 * audit log names them) with their permissions minus the platform-only ones, and not a platform
 * administrator there: everything they do runs in that organization's transaction, under its row-level
 * security, exactly as its own administrator's would.
 */
export const actInTenant = async (
  db: Db,
  ctx: TenantContext,
  raw: string,
  intent: "read" | "change",
): Promise<TenantContext> => {
  const parsed = ZTenantHeader.safeParse(raw.trim().toLowerCase());
  if (!parsed.success) {
    throw validationError([{ path: ACT_IN_TENANT_HEADER, message: "must be an organization id (a UUID)" }]);
  }
  const tenantId = parsed.data;
  if (tenantId === ctx.tenantId) return ctx;
  const needed = intent === "read" ? "tenants:read:all" : "tenants:update:all";
  if (ctx.isPlatformAdmin !== true || !ctx.actor.permissions.has(needed)) {
    throw new AppError("FORBIDDEN", {
      reason: "tenant.act_forbidden",
      message: "Only a platform administrator may act in another organization",
    });
  }
  const found = await db.withPlatform((tx) =>
    tx.tenant.findUnique({ where: { id: tenantId }, select: { id: true } }),
  );
  if (!found) throw new AppError("NOT_FOUND", { reason: "tenant.not_found", message: "Tenant not found" });
  return {
    ...ctx,
    tenantId: found.id,
    actor: {
      ...ctx.actor,
      permissions: new Set([...ctx.actor.permissions].filter((name) => !isPlatformOnlyPermission(name))),
    },
    isPlatformAdmin: false,
  };
};
