import { ZCurrencyCode } from "@hisob/kernel/schema";
import { z } from "zod";

/**
 * The first-run setup's steps: currencies, chart of accounts, accounts, categories, done (the chart's
 * step, 1, came in with docs/decisions/0102-chart-of-accounts-screen.md; steps saved before moved up one).
 */
export const SETUP_STEPS = 5;

/**
 * The organization's own settings (docs/decisions/0086-setup-idempotent-creates-sign-out-reasons.md):
 * its base currency and where its first-run setup stands, kept on the server so another browser or
 * computer sees the same.
 */
export const ZTenantSettingsDto = z
  .object({
    /** One of the organization's currencies; null until chosen. */
    baseCurrency: z.string().nullable(),
    setup: z.object({
      /** The step the setup was left at (0 = currencies … 4 = done); null = never started. */
      step: z
        .number()
        .int()
        .min(0)
        .max(SETUP_STEPS - 1)
        .nullable(),
      finished: z.boolean(),
    }),
  })
  .meta({ id: "TenantSettings" });
export type TTenantSettingsDto = z.infer<typeof ZTenantSettingsDto>;

/** What changes; a field left out stays as it is. */
export const ZUpdateTenantSettingsInput = z
  .object({
    baseCurrency: ZCurrencyCode.optional(),
    setup: z
      .object({
        step: z
          .number()
          .int()
          .min(0)
          .max(SETUP_STEPS - 1)
          .optional(),
        finished: z.boolean().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type TUpdateTenantSettingsInput = z.input<typeof ZUpdateTenantSettingsInput>;
