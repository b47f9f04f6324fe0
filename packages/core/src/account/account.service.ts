import type { Db, Outbox } from "@hisob/db";
import {
  AppError,
  hashPassword,
  parseInput,
  type TenantContext,
  verifyPassword,
  ZLocale,
} from "@hisob/kernel";
import { z } from "zod";
import { raiseSessionDeleted } from "../auth/auth.service";
import { usersRepository } from "../users/users.repository";
import { type TUserDto, ZAvatarUrl, ZPassword, ZUserDto } from "../users/users.schema";

export const ZAccountDto = ZUserDto.extend({
  tenant: z.object({ id: z.uuid(), name: z.string() }),
}).meta({ id: "Account" });
export type TAccountDto = z.infer<typeof ZAccountDto>;

export const ZUpdateAccountInput = z
  .object({
    firstName: z.string().trim().min(1).max(100).optional(),
    lastName: z.string().trim().min(1).max(100).optional(),
    uiLanguage: ZLocale.optional(),
    avatarUrl: ZAvatarUrl.nullable().optional(),
    currentPassword: z.string().min(1).max(1024).optional(),
    newPassword: ZPassword.optional(),
  })
  .strict();

/** One's own account: needs only a valid login, no permission. */
export const createAccountService = (deps: { db: Db; outbox: Outbox }) => {
  const get = async (ctx: TenantContext): Promise<TAccountDto> =>
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
    update: async (ctx: TenantContext, raw: unknown): Promise<TAccountDto> => {
      const input = parseInput(ZUpdateAccountInput, raw);
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
        if (stored?.passwordHash) {
          const ok =
            input.currentPassword !== undefined &&
            (await verifyPassword(stored.passwordHash, input.currentPassword));
          if (!ok) {
            throw new AppError("VALIDATION_ERROR", {
              reason: "account.wrong_current_password",
              message: "validation error: currentPassword is wrong",
              params: { issues: [{ path: "currentPassword", message: "is wrong" }] },
            });
          }
        }
        passwordHash = await hashPassword(input.newPassword);
      }
      await deps.db.withTenant(ctx.tenantId, async (tx) => {
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
          const others = await tx.session.findMany({
            where: {
              tenantId: ctx.tenantId,
              userId,
              ...(ctx.actor.sessionId ? { id: { not: ctx.actor.sessionId } } : {}),
            },
          });
          await tx.session.deleteMany({
            where: { tenantId: ctx.tenantId, id: { in: others.map((s) => s.id) } },
          });
          for (const session of others) await raiseSessionDeleted(deps.outbox, tx, session);
        }
      });
      return get(ctx);
    },
  };
};

export type AccountService = ReturnType<typeof createAccountService>;
export type { TUserDto };
