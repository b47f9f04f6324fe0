import { ZIdInput, ZPage } from "@hisob/kernel";
import { op, withId } from "../operations";
import { ZCreateTenantInput, ZListTenantsQuery, ZTenantDto, ZUpdateTenantInput } from "./tenants.schema";

const tag = "tenants";

/** Tenants: the platform administrator's (`tenants:*:all` exists only in the platform tenant). */
export const tenantsOperations = {
  list: op.query({
    http: { method: "GET", path: "/tenants", status: 200 },
    input: ZListTenantsQuery,
    output: ZPage(ZTenantDto),
    access: { requires: ["tenants:read:all"], platformOnly: true, wording: "tenants:read:all" },
    summary: "List tenants",
    tag,
    call: (services, ctx, input) => services.tenants.list(ctx, input),
  }),
  create: op.mutation({
    http: { method: "POST", path: "/tenants", status: 201 },
    input: ZCreateTenantInput,
    output: ZTenantDto,
    access: { requires: ["tenants:create:all"], platformOnly: true, wording: "tenants:create:all" },
    summary: "Create a tenant with its admin role",
    tag,
    call: (services, ctx, input) => services.tenants.create(ctx, input),
  }),
  get: op.query({
    http: { method: "GET", path: "/tenants/:id", status: 200 },
    input: ZIdInput,
    output: ZTenantDto,
    access: { requires: ["tenants:read:all"], platformOnly: true, wording: "tenants:read:all" },
    summary: "Get a tenant",
    tag,
    call: (services, ctx, input) => services.tenants.get(ctx, input.id),
  }),
  update: op.mutation({
    http: { method: "PUT", path: "/tenants/:id", status: 200, rest: "data" },
    input: withId(ZUpdateTenantInput),
    output: ZTenantDto,
    access: { requires: ["tenants:update:all"], platformOnly: true, wording: "tenants:update:all" },
    summary: "Update or (de)activate a tenant; deactivation ends its sessions",
    tag,
    call: (services, ctx, input) => services.tenants.update(ctx, input.id, input.data),
  }),
};
