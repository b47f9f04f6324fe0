import { op } from "../operations";
import { ZTenantSettingsDto, ZUpdateTenantSettingsInput } from "./settings.schema";

const tag = "currencies";

/** The organization's settings: its base currency and its first-run setup's progress. */
export const settingsOperations = {
  get: op.query({
    http: { method: "GET", path: "/tenant/settings", status: 200 },
    output: ZTenantSettingsDto,
    access: { requires: [] },
    summary: "The organization's settings: its base currency and where its first-run setup stands",
    tag,
    call: (services, ctx) => services.settings.get(ctx),
  }),
  update: op.mutation({
    http: { method: "PUT", path: "/tenant/settings", status: 200 },
    input: ZUpdateTenantSettingsInput,
    output: ZTenantSettingsDto,
    access: { requires: ["currencies:select:all"] },
    summary:
      "Change the base currency (one of the organization's currencies) or the first-run setup's progress; what is left out stays",
    tag,
    call: (services, ctx, input) => services.settings.update(ctx, input),
  }),
};
