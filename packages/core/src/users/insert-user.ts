import { isUniqueViolation, type Outbox, type Tx } from "@hisob/db";
import { AppError, hashPassword, parseInput } from "@hisob/kernel";
import { assertAvatarIsOwnUpload } from "./avatar";
import { type TCreateUserInput, ZCreateUserInput } from "./users.schema";

export type CreatedUser = {
  id: string;
  tenantId: string;
  email: string;
  firstName: string;
  lastName: string;
  roles: string[];
};

/** Ids or names in a body that are not the tenant's: input, not paths (400, naming the field). */
export const unknownValues = (field: string, reason: string, values: string[]) =>
  new AppError("VALIDATION_ERROR", {
    reason,
    message: `validation error: ${field} has unknown values: ${values.join(", ")}`,
    params: { issues: [{ path: field, message: `unknown: ${values.join(", ")}` }] },
  });

/**
 * The transactional heart of creating a user: validates, hashes the password, inserts the user
 * with its roles (by name or id, same tenant only) and groups, and raises `UserCreated` through the
 * outbox — all in the caller's transaction. Callers check permissions first (the users service,
 * the CLI, bootstrap).
 */
export const insertUser = async (
  tx: Tx,
  outbox: Outbox,
  tenantId: string,
  rawInput: TCreateUserInput,
): Promise<CreatedUser> => {
  const input = parseInput(ZCreateUserInput, rawInput);
  await assertAvatarIsOwnUpload(tx, tenantId, input.avatarUrl);
  const roleNames = [...new Set(input.roleNames)];
  const roleIds = [...new Set(input.roleIds)];
  const groupIds = [...new Set(input.groupIds)];
  const roles =
    roleNames.length + roleIds.length > 0
      ? await tx.role.findMany({
          where: { tenantId, OR: [{ name: { in: roleNames } }, { id: { in: roleIds } }] },
          select: { id: true, name: true },
        })
      : [];
  const missingNames = roleNames.filter((name) => !roles.some((role) => role.name === name));
  if (missingNames.length > 0) throw unknownValues("roleNames", "user.unknown_role", missingNames);
  const missingIds = roleIds.filter((id) => !roles.some((role) => role.id === id));
  if (missingIds.length > 0) throw unknownValues("roleIds", "user.unknown_role", missingIds);
  const groups = groupIds.length
    ? await tx.group.findMany({ where: { tenantId, id: { in: groupIds } }, select: { id: true } })
    : [];
  const missingGroups = groupIds.filter((id) => !groups.some((group) => group.id === id));
  if (missingGroups.length > 0) throw unknownValues("groupIds", "user.unknown_group", missingGroups);

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
        isActive: input.active,
        avatarUrl: input.avatarUrl ?? null,
        roles: { create: roles.map((role) => ({ tenantId, roleId: role.id })) },
        groups: { create: groups.map((group) => ({ tenantId, groupId: group.id })) },
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
