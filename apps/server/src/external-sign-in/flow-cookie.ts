import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { z } from "zod";

/*
 * The pending external sign-in lives in the browser that started it: state, nonce, PKCE verifier,
 * where to go next and the page language, sealed (AES-256-GCM) in an HttpOnly cookie scoped to
 * /auth/external. The callback accepts only the browser holding that cookie (login CSRF), nothing is
 * stored server-side, and any instance can finish a flow another started.
 */

export const FLOW_COOKIE = "hisob_external_sign_in";
export const FLOW_COOKIE_PATH = "/auth/external";
/** How long the user has at the upstream provider before the flow must start again. */
export const FLOW_LIFETIME_MS = 10 * 60 * 1000;

const ZFlow = z.object({
  state: z.string().min(1),
  nonce: z.string().min(1),
  verifier: z.string().min(43).max(128),
  next: z.string(),
  locale: z.string(),
  expiresAt: z.number().int(),
});
export type TFlow = z.infer<typeof ZFlow>;

const keyFrom = (cryptoKey: string): Buffer =>
  Buffer.from(hkdfSync("sha256", cryptoKey, Buffer.alloc(0), "hisob.external-sign-in.v1", 32));

export const createFlowSealer = (cryptoKey: string) => {
  const key = keyFrom(cryptoKey);
  return {
    seal: (flow: TFlow): string => {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(flow), "utf8"), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
    },
    /** The flow, or undefined for a missing, forged, tampered or expired cookie. */
    open: (sealed: string | undefined, now: Date): TFlow | undefined => {
      if (!sealed || sealed.length > 4096) return undefined;
      try {
        const raw = Buffer.from(sealed, "base64url");
        if (raw.length < 29) return undefined;
        const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        const json = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
        const flow = ZFlow.safeParse(JSON.parse(json));
        if (!flow.success || flow.data.expiresAt <= now.getTime()) return undefined;
        return flow.data;
      } catch {
        return undefined;
      }
    },
  };
};
