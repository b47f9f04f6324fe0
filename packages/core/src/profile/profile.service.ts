import type { Db, Outbox } from "@hisob/db";
import { AppError, hashPassword, parseInput, type TenantContext, verifyPassword } from "@hisob/kernel";
import type { AttemptBudget } from "../auth/attempt-budget";
import { endSessionsWhere } from "../sessions/end-sessions";
import { assertAvatarIsOwnUpload } from "../users/avatar";
import { usersRepository } from "../users/users.repository";
import type { TUserDto } from "../users/users.schema";
import { type TProfileDto, ZProfileDto, ZUpdateProfileInput } from "./profile.schema";

export { type TProfileDto, ZProfileDto, ZUpdateProfileInput };

/** One's own profile (the signed-in user, REST `/account`): needs only a valid login, no permission. */
export const createProfileService = (deps: {
  db: Db;
  outbox: Outbox;
  /** Current-password checks per user: a stolen session must not be a password oracle. */
  currentPasswordBudget: AttemptBudget;
}) => {
  /**
   * Checks the current password against the user's budget. When the budget is spent, the session
   * that asked ends (whoever holds it has guessed too often) and the answer is RATE_LIMITED.
   */
  const verifyCurrentPassword = async (ctx: TenantContext, storedHash: string, given: string | undefined) => {
    const reservation = await deps.currentPasswordBudget.reserve(ctx.actor.userId);
    if (!reservation.ok) {
      const { sessionId } = ctx.actor;
      if (sessionId) {
        await deps.db.withTenant(ctx.tenantId, (tx) =>
          endSessionsWhere(tx, deps.outbox, ctx.tenantId, { id: sessionId }, "signed_out"),
        );
      }
      throw new AppError("RATE_LIMITED", {
        reason: "account.too_many_password_attempts",
        message: "Too many wrong current passwords; this session has been signed out",
        params: { retryAfterSeconds: reservation.retryAfterSeconds },
      });
    }
    const ok = given !== undefined && (await verifyPassword(storedHash, given));
    if (!ok) {
      await reservation.keep();
      throw new AppError("VALIDATION_ERROR", {
        reason: "account.wrong_current_password",
        message: "validation error: currentPassword is wrong",
        params: { issues: [{ path: "currentPassword", message: "is wrong" }] },
      });
    }
    await deps.currentPasswordBudget.clear(ctx.actor.userId);
  };

  const get = async (ctx: TenantContext): Promise<TProfileDto> =>
    deps.db.withTenant(ctx.tenantId, async (tx) => {
      const user = await usersRepository.findDto(tx, ctx.tenantId, ctx.actor.userId);
      const tenant = await tx.tenant.findFirst({
        where: { id: ctx.tenantId },
        select: { id: true, name: true },
      });
      if (!user || !tenant) throw new AppError("UNAUTHENTICATED");
      return { ...user, tenant };
    });

  return {
    get,
    update: async (ctx: TenantContext, raw: unknown): Promise<TProfileDto> => {
      const input = parseInput(ZUpdateProfileInput, raw);
      const { userId } = ctx.actor;
      let passwordHash: string | undefined;
      if (input.newPassword !== undefined) {
        const stored = await deps.db.withTenant(ctx.tenantId, (tx) =>
          tx.user.findFirst({
            where: { tenantId: ctx.tenantId, id: userId },
            select: { passwordHash: true },
          }),
        );
        // Someone who has a password proves it before changing it (a stolen session is not enough).
        if (stored?.passwordHash)
          await verifyCurrentPassword(ctx, stored.passwordHash, input.currentPassword);
        passwordHash = await hashPassword(input.newPassword);
      }
      await deps.db.withTenant(ctx.tenantId, async (tx) => {
        await assertAvatarIsOwnUpload(tx, ctx.tenantId, input.avatarUrl);
        await tx.user.updateMany({
          where: { tenantId: ctx.tenantId, id: userId },
          data: {
            ...(input.firstName === undefined ? {} : { firstName: input.firstName }),
            ...(input.lastName === undefined ? {} : { lastName: input.lastName }),
            ...(input.uiLanguage === undefined ? {} : { uiLanguage: input.uiLanguage }),
            ...(input.avatarUrl === undefined ? {} : { avatarUrl: input.avatarUrl }),
            ...(passwordHash === undefined ? {} : { passwordHash }),
          },
        });
        if (passwordHash !== undefined) {
          // A new password signs out every other session of this user.
          await endSessionsWhere(
            tx,
            deps.outbox,
            ctx.tenantId,
            { userId, ...(ctx.actor.sessionId ? { id: { not: ctx.actor.sessionId } } : {}) },
            "credentials_changed",
          );
        }
      });
      return get(ctx);
    },
  };
};

export type ProfileService = ReturnType<typeof createProfileService>;
export type { TUserDto };
