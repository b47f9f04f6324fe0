import type { Outbox, Tx } from "@hisob/db";
import { AppError, hashPassword, parseInput } from "@hisob/kernel";
import { isUniqueViolation } from "../prisma-errors";
import { type TCreateUserInput, ZCreateUserInput } from "./users.schema";

export type CreatedUser = {
  id: string;
  tenantId: string;
  email: string;
  firstName: string;
  lastName: string;
  roles: string[];
};

/**
 * The transactional heart of creating a user: validates, hashes the password, inserts the user and
 * its roles (by name, in the same tenant) and raises `UserCreated` through the outbox — all in the
 * caller's transaction. Callers check permissions first (the users service, the CLI, bootstrap).
 */
export const insertUser = async (
  tx: Tx,
  outbox: Outbox,
  tenantId: string,
  rawInput: TCreateUserInput,
): Promise<CreatedUser> => {
  const input = parseInput(ZCreateUserInput, rawInput);
  const roleNames = [...new Set(input.roleNames)];
  const roles = roleNames.length
    ? await tx.role.findMany({
        where: { tenantId, name: { in: roleNames } },
        select: { id: true, name: true },
      })
    : [];
  const missing = roleNames.filter((name) => !roles.some((role) => role.name === name));
  if (missing.length > 0) {
    throw new AppError("VALIDATION_ERROR", {
      reason: "user.unknown_role",
      message: `validation error: roleNames has unknown roles: ${missing.join(", ")}`,
      params: { roles: missing },
    });
  }
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  try {
    const user = await tx.user.create({
      data: {
        tenantId,
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        passwordHash,
        uiLanguage: input.uiLanguage,
        isActive: input.isActive,
        avatarUrl: input.avatarUrl ?? null,
        roles: { create: roles.map((role) => ({ tenantId, roleId: role.id })) },
      },
      select: { id: true, email: true, firstName: true, lastName: true },
    });
    await outbox.raise(tx, {
      type: "UserCreated",
      tenantId,
      payload: { userId: user.id, email: user.email },
    });
    return { ...user, tenantId, roles: roles.map((role) => role.name).sort() };
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("CONFLICT", {
        reason: "user.email_taken",
        message: "A user with this email already exists",
      });
    }
    throw error;
  }
};
