import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";

/*
 * The client's address behind trusted proxies (docs/decisions/0002-client-address-behind-proxies.md).
 * Fastify's trustProxy peels X-Forwarded-For entries from the right while they name a trusted hop;
 * the entry where it stops becomes `request.ip`, whatever it holds. Proxies write addresses; a value
 * that is not one (`foo`, `1.2.3.4:80`, `[::1]`, 2,000 characters) was written by the client, and
 * would become a fresh key of every budget (sign-in, rate limits) and the audit log's address.
 */

const FORWARDED_FOR = "x-forwarded-for";

/**
 * Keeps only the entries to the right of the right-most one that is not an IP address: nothing at or
 * before it can have come from a proxy. When the trusted hops then reach past what is left, the client
 * is the connection's peer (or the address the last proxy saw), never the client's own text.
 */
export const forwardedForWithoutForgeries = (header: string): string => {
  const entries = header.split(",").map((entry) => entry.trim());
  let first = entries.length;
  while (first > 0 && isIP(entries[first - 1] ?? "") !== 0) first -= 1;
  return entries.slice(first).join(", ");
};

/** Run before anything reads `request.ip` (the first onRequest hook), only when proxies are trusted. */
export const dropForgedForwardedFor = (raw: IncomingMessage): void => {
  const header = raw.headers[FORWARDED_FOR];
  if (header === undefined) return;
  const kept = forwardedForWithoutForgeries(Array.isArray(header) ? header.join(",") : header);
  if (kept === "") delete raw.headers[FORWARDED_FOR];
  else raw.headers[FORWARDED_FOR] = kept;
};
