/*
 * The one reader of an `Authorization` header (RFC 7235), for every transport: a Bearer token
 * (RFC 6750: token68 characters) or HTTP Basic client credentials (RFC 6749 §2.3.1: both parts are
 * form-urlencoded before the Basic encoding). Server-only (Buffer): not in the `./schema` entry.
 */

export type Authorization =
  | { scheme: "none" }
  | { scheme: "bearer"; token: string }
  | { scheme: "basic"; clientId: string; secret: string }
  /** A header we cannot use: another scheme, or a Bearer or Basic value that is malformed. */
  | { scheme: "unusable" };

const BEARER = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i;
const BASIC = /^Basic ([A-Za-z0-9+/]+=*)$/i;

const formDecode = (text: string): string => decodeURIComponent(text.replace(/\+/g, " "));

export const parseAuthorization = (header: string | undefined): Authorization => {
  if (header === undefined) return { scheme: "none" };
  const value = header.trim();
  const bearer = BEARER.exec(value)?.[1];
  if (bearer) return { scheme: "bearer", token: bearer };
  const basic = BASIC.exec(value)?.[1];
  if (!basic) return { scheme: "unusable" };
  const decoded = Buffer.from(basic, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return { scheme: "unusable" };
  try {
    return {
      scheme: "basic",
      clientId: formDecode(decoded.slice(0, colon)),
      secret: formDecode(decoded.slice(colon + 1)),
    };
  } catch {
    // A malformed percent-escape: not credentials anyone could hold.
    return { scheme: "unusable" };
  }
};
