import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

/*
 * Guards for the HTML forms (login, logout): where `next` may lead, whether a post came from our
 * own pages (Origin), and the CSRF token bound to a cookie (double submit, HMAC form).
 */

/** Where a sign-in lands when `next` is missing or not a safe local path. */
export const DEFAULT_NEXT = "/account";

// C0 and C1 controls (\p{Cc}): browsers drop tabs and newlines inside URLs, so "/\t/evil.com" would become "//evil.com".
const CONTROL_CHARS = /\p{Cc}/u;
const PROBE_ORIGIN = "http://next.invalid";

/**
 * `value` when it is a same-origin relative path ("/users?x=1"), normalised so the Location header
 * is plain ASCII; DEFAULT_NEXT otherwise. Refuses "//host" and "/\host" (network paths to another
 * host), schemes, backslashes, control characters, and paths whose dot segments collapse into "//".
 */
export const safeNextPath = (value: unknown): string => {
  if (typeof value !== "string" || value.length > 8192) return DEFAULT_NEXT;
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\") || CONTROL_CHARS.test(value)) {
    return DEFAULT_NEXT;
  }
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return DEFAULT_NEXT;
  }
  if (url.origin !== PROBE_ORIGIN) return DEFAULT_NEXT;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // "/.//evil.com" normalises to "//evil.com".
  return path.startsWith("//") ? DEFAULT_NEXT : path;
};

const originOf = (value: string): string | undefined => {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : undefined;
  } catch {
    return undefined;
  }
};

/**
 * True when a form post comes from one of our own pages: its Origin is the public origin
 * (OIDC_ISSUER_URL) or the origin the request was addressed to. Browsers send Origin on every POST;
 * without one, a same-origin Referer is accepted instead. `Origin: null` (sandboxed or privacy-stripped) is refused.
 */
export const isSameOriginPost = (request: FastifyRequest, issuerUrl: string): boolean => {
  const own = new Set(
    [originOf(issuerUrl), originOf(`${request.protocol}://${request.host}`)].filter(
      (origin): origin is string => origin !== undefined,
    ),
  );
  const claimed = request.headers.origin ?? request.headers.referer;
  if (typeof claimed !== "string") return false;
  const origin = originOf(claimed);
  return origin !== undefined && own.has(origin);
};

/*
 * CSRF token: a random secret lives in an HttpOnly cookie; the form carries HMAC(secret, purpose).
 * A cross-site page can neither read the cookie nor compute the token, so it cannot submit our forms.
 * The HMAC keeps the cookie's value out of the HTML. Over https the cookie is `__Host-` prefixed,
 * so a sibling subdomain cannot plant its own secret.
 */
export const CSRF_FIELD = "_csrf";
const CSRF_PURPOSE = "hisob.form-csrf.v1";
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const csrfCookieName = (secure: boolean): string => (secure ? "__Host-csrf" : "csrf");

const tokenFor = (secret: string): string =>
  createHmac("sha256", secret).update(CSRF_PURPOSE).digest("base64url");

const secretOf = (request: FastifyRequest, secure: boolean): string | undefined => {
  const secret = request.cookies[csrfCookieName(secure)];
  return secret !== undefined && SECRET_SHAPE.test(secret) ? secret : undefined;
};

/** The token for the form being rendered; sets the secret cookie when the browser has none yet. */
export const issueCsrfToken = (request: FastifyRequest, reply: FastifyReply, secure: boolean): string => {
  let secret = secretOf(request, secure);
  if (!secret) {
    secret = randomBytes(32).toString("base64url");
    reply.setCookie(csrfCookieName(secure), secret, { httpOnly: true, sameSite: "lax", secure, path: "/" });
  }
  return tokenFor(secret);
};

export const isValidCsrfToken = (request: FastifyRequest, submitted: unknown, secure: boolean): boolean => {
  const secret = secretOf(request, secure);
  if (!secret || typeof submitted !== "string") return false;
  const expected = Buffer.from(tokenFor(secret));
  const actual = Buffer.from(submitted);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
};
