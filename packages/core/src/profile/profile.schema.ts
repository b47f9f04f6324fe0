import { ZLocale, ZRequiredLine } from "@hisob/kernel/schema";
import { z } from "zod";
import { ZAvatarUrl, ZPassword, ZUserDto } from "../users/users.schema";

export const ZProfileDto = ZUserDto.extend({
  tenant: z.object({ id: z.uuid(), name: z.string() }),
}).meta({ id: "Profile" });
export type TProfileDto = z.infer<typeof ZProfileDto>;

export const ZUpdateProfileInput = z
  .object({
    firstName: ZRequiredLine(100).optional(),
    lastName: ZRequiredLine(100).optional(),
    uiLanguage: ZLocale.optional(),
    avatarUrl: ZAvatarUrl.nullable().optional(),
    currentPassword: z.string().min(1).max(1024).optional(),
    newPassword: ZPassword.optional(),
  })
  .strict();
