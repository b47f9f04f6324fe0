import { randomBytes } from "node:crypto";
import { ADMIN_ROLE_NAME, insertUser, provisionTenant } from "@hisob/core";
import type { Db, Outbox } from "@hisob/db";
import { checkPasswordStrength } from "@hisob/kernel";

export const DEFAULT_ADMIN_EMAIL = "admin@hisob.local";

export type BootstrapResult = {
  tenantId: string;
  email: string;
  /** Set only when we generated it: shown once, never stored in clear. */
  generatedPassword?: string;
};

/** A random password that always satisfies our own strength rule. */
export const generatePassword = (): string => {
  for (;;) {
    const candidate = randomBytes(18).toString("base64url");
    if (checkPasswordStrength(candidate) === null) return candidate;
  }
};

/**
 * First start: creates the platform tenant, its `admin` role with every registered permission and
 * the platform admin user. Credentials come from ADMIN_EMAIL/ADMIN_PASSWORD, or a password is
 * generated and returned to be printed once. No fixed default password exists anywhere.
 * Does nothing (returns null) once a platform tenant exists. Run while holding the startup lock.
 */
export const bootstrapPlatform = async (
  deps: { db: Db; outbox: Outbox },
  admin?: { email: string; password: string },
): Promise<BootstrapResult | null> => {
  if (await deps.db.system.hasPlatformTenant()) return null;
  const generatedPassword = admin ? undefined : generatePassword();
  const user = {
    email: admin?.email ?? DEFAULT_ADMIN_EMAIL,
    password: admin?.password ?? generatedPassword ?? "",
    firstName: "Platform",
    lastName: "Admin",
    roleNames: [ADMIN_ROLE_NAME],
  };
  // Tenant, role and administrator commit together: a rejected ADMIN_PASSWORD leaves nothing behind.
  let email = "";
  const tenant = await provisionTenant(deps, { name: "Hisob", isPlatform: true }, async (tx, created) => {
    email = (await insertUser(tx, deps.outbox, created.id, user)).email;
  });
  return { tenantId: tenant.id, email, ...(generatedPassword ? { generatedPassword } : {}) };
};
