import { z } from "zod";

export const ZLoginInput = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(1024),
});
export type TLoginInput = z.infer<typeof ZLoginInput>;

/** How people may sign in: always a password; an upstream OpenID provider when one is configured. */
export const ZSignInMethods = z
  .object({
    password: z.literal(true),
    /** The upstream provider (EXTERNAL_OIDC_*) by its name on the login page, or null when none is configured. */
    external: z.object({ name: z.string() }).nullable(),
  })
  .meta({ id: "SignInMethods" });
