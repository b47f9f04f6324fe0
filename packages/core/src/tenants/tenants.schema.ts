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
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
  sortBy: z.enum(["name", "createdAt"]).default("createdAt"),
  order: z.enum(["asc", "desc"]).default("asc"),
  name: z.string().trim().min(1).max(200).optional(),
  active: z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]).optional(),
});
