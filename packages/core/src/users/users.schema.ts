import { checkPasswordStrength, ZLocale } from "@hisob/kernel";
import { z } from "zod";

export const ZEmail = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ message: "must be a valid email address" }))
  .transform((email) => email.toLowerCase());

export const ZPassword = z.string().superRefine((password, ctx) => {
  const problem = checkPasswordStrength(password);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

const ZName = z.string().trim().min(1).max(100);

export const ZCreateUserInput = z.object({
  email: ZEmail,
  firstName: ZName,
  lastName: ZName,
  password: ZPassword.optional(),
  uiLanguage: ZLocale.default("en"),
  isActive: z.boolean().default(true),
  avatarUrl: z.url().max(2048).optional(),
  roleNames: z.array(z.string().trim().min(1).max(100)).max(50).default([]),
});
export type TCreateUserInput = z.input<typeof ZCreateUserInput>;
