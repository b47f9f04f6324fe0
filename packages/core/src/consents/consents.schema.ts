import { z } from "zod";

/** An OIDC client id as the consent routes take it (the path segment). */
export const ZConsentClientId = z.string().trim().min(1).max(100);

/** What a user allowed a third-party application (docs/decisions/0036-oidc-consent.md). */
export const ZConsentDto = z
  .object({
    clientId: z.string(),
    /** The application's name; the client id when the client no longer exists. */
    clientName: z.string(),
    scopes: z.array(z.string()),
    createdAt: z.date().transform((date) => date.toISOString()),
    updatedAt: z.date().transform((date) => date.toISOString()),
  })
  .meta({ id: "OidcConsent" });

export type TConsentDto = z.input<typeof ZConsentDto>;
