import { ZCurrencyCode } from "@hisob/kernel";
import { z } from "zod";
import { consentsOperations } from "./consents/consents.operations";
import {
  ZCreateCurrencyInput,
  ZCurrencyDto,
  ZSelectCurrenciesInput,
  ZUpdateCurrencyInput,
} from "./currencies/currencies.schema";
import { groupsOperations } from "./groups/groups.operations";
import { op } from "./operations";
import { ZProfileDto, ZUpdateProfileInput } from "./profile/profile.schema";
import { rolesOperations } from "./roles/roles.operations";
import { sessionsOperations } from "./sessions/sessions.operations";
import { settingsOperations } from "./settings/settings.operations";
import { tenantsOperations } from "./tenants/tenants.operations";
import { usersOperations } from "./users/users.operations";

/*
 * Core operations declared once (see `@hisob/kernel`'s operations): the REST routes and OpenAPI
 * entries are derived from this catalog; the tRPC router picks the ones the accountant app calls.
 * Uploads (multipart bodies and file downloads), the audit log (its export takes no `?lang=`), sign-in
 * and the OpenID provider keep hand-written routes.
 */

const signedIn = { requires: [] };

export const coreOperations = {
  /** The signed-in user's own profile, at `/account`. */
  profile: {
    get: op.query({
      http: { method: "GET", path: "/account", status: 200 },
      output: ZProfileDto,
      access: signedIn,
      summary: "One's own account: name, language, roles and effective permissions",
      tag: "account",
      call: (services, ctx) => services.profile.get(ctx),
    }),
    update: op.mutation({
      http: { method: "PUT", path: "/account", status: 200 },
      input: ZUpdateProfileInput,
      output: ZProfileDto,
      access: signedIn,
      summary:
        "Update one's own name, language, avatar or password (the current password is required to change it)",
      tag: "account",
      call: (services, ctx, input) => services.profile.update(ctx, input),
    }),
  },
  currencies: {
    all: op.query({
      http: { method: "GET", path: "/currencies", status: 200 },
      output: z.array(ZCurrencyDto),
      access: signedIn,
      summary: "The global currency list",
      tag: "currencies",
      call: (services, ctx) => services.currencies.listAll(ctx),
    }),
    create: op.mutation({
      http: { method: "POST", path: "/currencies", status: 201 },
      input: ZCreateCurrencyInput,
      output: ZCurrencyDto,
      access: { requires: ["currencies:create:all"], platformOnly: true },
      summary: "Add a currency",
      tag: "currencies",
      call: (services, ctx, input) => services.currencies.create(ctx, input),
    }),
    update: op.mutation({
      http: { method: "PUT", path: "/currencies/:code", status: 200, rest: "data" },
      input: z.object({ code: ZCurrencyCode, data: ZUpdateCurrencyInput }),
      output: ZCurrencyDto,
      access: { requires: ["currencies:update:all"], platformOnly: true },
      summary: "Change or deactivate a currency",
      tag: "currencies",
      call: (services, ctx, input) => services.currencies.update(ctx, input.code, input.data),
    }),
    selected: op.query({
      http: { method: "GET", path: "/tenant/currencies", status: 200 },
      output: z.array(ZCurrencyDto),
      access: signedIn,
      summary: "The currencies the caller's organization uses (what accounts may use)",
      tag: "currencies",
      call: (services, ctx) => services.currencies.listSelected(ctx),
    }),
    select: op.mutation({
      http: { method: "PUT", path: "/tenant/currencies", status: 200 },
      input: ZSelectCurrenciesInput,
      output: z.array(ZCurrencyDto),
      access: { requires: ["currencies:select:all"] },
      summary: "Replace the organization's currency selection",
      tag: "currencies",
      call: (services, ctx, input) => services.currencies.setSelected(ctx, input),
    }),
  },
  users: usersOperations,
  roles: rolesOperations,
  groups: groupsOperations,
  tenants: tenantsOperations,
  sessions: sessionsOperations,
  consents: consentsOperations,
  settings: settingsOperations,
};
