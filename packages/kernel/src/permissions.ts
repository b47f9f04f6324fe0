import type { TenantContext } from "./context";
import { AppError } from "./errors";

/** `<resource>:<action>:<all|own>` — `own` grants only records the caller owns. */
export type Permission = `${string}:${string}:${"all" | "own"}`;
export type PermissionScope = "all" | "own";

export type PermissionDefinition = {
  name: Permission;
  resource: string;
  action: string;
  modifier: PermissionScope;
  module: string;
  description: string;
  /** Only the platform tenant's roles may hold it (e.g. managing tenants). */
  platformOnly: boolean;
};

const PERMISSION_PATTERN = /^([a-z][a-z0-9_-]*):([a-z][a-z0-9_-]*):(all|own)$/;

export const parsePermission = (
  name: string,
): Omit<PermissionDefinition, "module" | "description" | "platformOnly"> | null => {
  const match = PERMISSION_PATTERN.exec(name);
  if (!match) return null;
  const [, resource = "", action = "", modifier] = match;
  return { name: name as Permission, resource, action, modifier: modifier as PermissionScope };
};

/**
 * The process-wide registry every module adds its permission strings to, at import time.
 * Roles may only hold registered strings; the server syncs the registry into the permissions table.
 */
const registry = new Map<string, PermissionDefinition>();

export const registerPermissions = <const N extends Permission>(
  module: string,
  entries: Record<N, string>,
  options: { platformOnly?: boolean } = {},
): N[] => {
  // Check every entry before registering any: a refused module leaves the registry as it was.
  const definitions = (Object.entries(entries) as [N, string][]).map(([name, description]) => {
    const parsed = parsePermission(name);
    if (!parsed) throw new Error(`Invalid permission string "${name}" in module ${module}`);
    const existing = registry.get(name);
    if (existing && existing.module !== module) {
      throw new Error(`Permission "${name}" registered twice (${existing.module}, ${module})`);
    }
    return { ...parsed, module, description, platformOnly: options.platformOnly ?? false };
  });
  for (const definition of definitions) registry.set(definition.name, definition);
  // The names as the module wrote them: a module's permission type is `(typeof ITS_PERMISSIONS)[number]`.
  return definitions.map((definition) => definition.name as N);
};

/**
 * Every registered permission, sorted by name in the same order as `sortPermissions` (UTF-16 code
 * units: not `localeCompare`, whose order depends on the host's locale and ICU version).
 */
export const listPermissions = (): PermissionDefinition[] =>
  [...registry.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

export const isRegisteredPermission = (name: string): boolean => registry.has(name);

export const isPlatformOnlyPermission = (name: string): boolean => registry.get(name)?.platformOnly === true;

/** Sorted, de-duplicated permission names: the one stable order for effective permissions. */
export const sortPermissions = (names: Iterable<string>): string[] => [...new Set(names)].sort();

/** Throws FORBIDDEN unless the caller holds exactly this permission. */
export const requirePermission = (ctx: TenantContext, permission: Permission): void => {
  if (!ctx.actor.permissions.has(permission)) {
    throw new AppError("FORBIDDEN", { reason: "auth.forbidden", params: { permission } });
  }
};

/**
 * For operations with an `own` variant: returns "all" when the caller holds `<r>:<a>:all`,
 * "own" when only `<r>:<a>:own`, and throws FORBIDDEN otherwise. The service then limits
 * an "own" caller to the records it owns.
 */
export const requireScope = (ctx: TenantContext, resource: string, action: string): PermissionScope => {
  if (ctx.actor.permissions.has(`${resource}:${action}:all`)) return "all";
  if (ctx.actor.permissions.has(`${resource}:${action}:own`)) return "own";
  throw new AppError("FORBIDDEN", {
    reason: "auth.forbidden",
    params: { permission: `${resource}:${action}:all` },
  });
};

/*
 * Audit fields only some readers may see. The audit log records a record's fields as they were
 * (a salary change shows both amounts); a reader of the log who lacks the permission that guards a
 * field elsewhere sees that it changed, never its values. Modules register theirs at import time.
 */
const protectedAuditFields = new Map<string, { permission: Permission; fields: ReadonlySet<string> }>();

/** The values of `fields` in `entity`'s audit entries, for readers holding `permission` only. */
export const protectAuditFields = (entity: string, permission: Permission, fields: readonly string[]) => {
  protectedAuditFields.set(entity, { permission, fields: new Set(fields) });
};

/** What a protected value reads as for someone who may not see it. */
export const HIDDEN_AUDIT_VALUE = "•••";

/**
 * `change` (an entry's before or after) as `permissions` may read it: protected values of `entity`
 * replaced by HIDDEN_AUDIT_VALUE (null stays null: that nothing was there is not a secret).
 */
export const maskAuditFields = (
  entity: string,
  change: Record<string, unknown> | null,
  permissions: ReadonlySet<string>,
): Record<string, unknown> | null => {
  const rule = protectedAuditFields.get(entity);
  if (!change || !rule || permissions.has(rule.permission)) return change;
  return Object.fromEntries(
    Object.entries(change).map(([key, value]) => [
      key,
      rule.fields.has(key) && value !== null ? HIDDEN_AUDIT_VALUE : value,
    ]),
  );
};
