import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { z } from "zod";

/*
 * The consent page's interaction id: the authorize request it answers, bound to the login session that
 * saw the page, sealed with an HMAC under a key derived from OIDC_CRYPTO_KEY (docs/decisions/0036-oidc-consent.md).
 * Stateless: nothing to store or sweep; another session's id, an edited request or an old page is refused.
 */

const HKDF_SALT = "hisob/oidc/consent-interaction/v1";
const HKDF_INFO = "hisob oidc consent interaction (HMAC-SHA256)";
/** Long enough to read the page, short enough that a left-open tab does not grant much later. */
export const CONSENT_INTERACTION_SECONDS = 600;
const MAX_INTERACTION_LENGTH = 12_000;

const ZInteraction = z.object({
  /** The login session that was shown the page. */
  sid: z.uuid(),
  /** The authorize request's query string (validated again when the decision comes). */
  q: z.string().max(9000),
  /** Expiry, seconds since the epoch. */
  exp: z.number().int(),
});
export type ConsentInteraction = z.infer<typeof ZInteraction>;

export type InteractionCheck =
  | { ok: true; interaction: ConsentInteraction }
  | { ok: false; why: "malformed" | "expired" };

export const createConsentInteractions = (cryptoKey: string) => {
  const key = Buffer.from(hkdfSync("sha256", Buffer.from(cryptoKey, "utf8"), HKDF_SALT, HKDF_INFO, 32));
  const mac = (body: string) => createHmac("sha256", key).update(body).digest();

  return {
    seal: (interaction: ConsentInteraction): string => {
      const body = Buffer.from(JSON.stringify(interaction)).toString("base64url");
      return `${body}.${mac(body).toString("base64url")}`;
    },
    /** The interaction when the seal is ours and it has not expired; the caller checks the session. */
    open: (value: unknown, nowSeconds: number): InteractionCheck => {
      if (typeof value !== "string" || value.length > MAX_INTERACTION_LENGTH)
        return { ok: false, why: "malformed" };
      const [body, signature, extra] = value.split(".");
      if (!body || !signature || extra !== undefined) return { ok: false, why: "malformed" };
      const expected = mac(body);
      const actual = Buffer.from(signature, "base64url");
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected))
        return { ok: false, why: "malformed" };
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
      } catch {
        return { ok: false, why: "malformed" };
      }
      const interaction = ZInteraction.safeParse(parsed);
      if (!interaction.success) return { ok: false, why: "malformed" };
      if (interaction.data.exp < nowSeconds) return { ok: false, why: "expired" };
      return { ok: true, interaction: interaction.data };
    },
  };
};

export type ConsentInteractions = ReturnType<typeof createConsentInteractions>;
