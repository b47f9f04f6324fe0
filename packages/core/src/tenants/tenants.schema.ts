import { ZPagination, ZQueryBoolean, ZRequiredLine } from "@hisob/kernel";
import { z } from "zod";
import { ZProvisionTenantInput } from "./provision-tenant";

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

export const ZCreateTenantInput = ZProvisionTenantInput.omit({ isPlatform: true }).strict();

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
