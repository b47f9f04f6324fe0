import { ZCurrencyCode, ZLocale, ZPagination, ZQueryBoolean, ZRequiredLine } from "@hisob/kernel/schema";
import { z } from "zod";
import { ZEmail, ZPassword } from "../users/users.schema";

export const ZProvisionTenantInput = z.object({
  name: ZRequiredLine(200),
  domain: z
    .string()
    .trim()
    .toLowerCase()
    .max(253)
    .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, {
      message: "must be a domain name like acme.uz",
    })
    .optional(),
  isPlatform: z.boolean().default(false),
  /** The tenant's first currency selection (finance accepts only selected currencies). */
  currencies: z.array(ZCurrencyCode).min(1).max(50).default(["UZS"]),
});
export type TProvisionTenantInput = z.input<typeof ZProvisionTenantInput>;

export const ZTenantDto = z
  .object({
    id: z.uuid(),
    name: z.string(),
    domain: z.string().nullable(),
    active: z.boolean(),
    isPlatform: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Tenant" });
export type TTenantDto = z.infer<typeof ZTenantDto>;

/**
 * A new tenant's first administrator, created in the tenant's own transaction with its `admin` role.
 * Without a password the user is invited: they sign in through an upstream provider with this email,
 * or a password is set for them later.
 */
export const ZTenantFirstAdmin = z
  .object({
    email: ZEmail,
    firstName: ZRequiredLine(100),
    lastName: ZRequiredLine(100),
    password: ZPassword.optional(),
    uiLanguage: ZLocale.default("en"),
  })
  .strict();
export type TTenantFirstAdmin = z.input<typeof ZTenantFirstAdmin>;

export const ZCreateTenantInput = ZProvisionTenantInput.omit({ isPlatform: true })
  .extend({ admin: ZTenantFirstAdmin.optional() })
  .strict();

export const ZUpdateTenantInput = z
  .object({
    name: ZProvisionTenantInput.shape.name.optional(),
    domain: ZProvisionTenantInput.shape.domain.unwrap().nullable().optional(),
    active: z.boolean().optional(),
  })
  .strict();

export const ZListTenantsQuery = z.object({
  ...ZPagination.shape,
  sortBy: z.enum(["name", "createdAt"]).default("createdAt"),
  order: z.enum(["asc", "desc"]).default("asc"),
  name: ZRequiredLine(200).optional(),
  active: ZQueryBoolean.optional(),
});
