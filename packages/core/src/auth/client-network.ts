import { isIP } from "node:net";
import { Address6 } from "ip-address";

/** The network of a value that is not an IP address: every such caller shares one budget. */
export const UNKNOWN_NETWORK = "unknown";

/**
 * The network a client address stands for in every budget and rate limit (sign-in, REST, tRPC,
 * GraphQL, the OpenID provider): an IPv4 address as is (also when written IPv4-mapped,
 * `::ffff:1.2.3.4`), an IPv6 address by its /64 (`2001:db8:1:2::/64`): one host is usually handed
 * a whole /64, so counting single IPv6 addresses would let it rotate through 2^64 budgets. Anything
 * that is not an address is UNKNOWN_NETWORK, never a key of its own (a caller could otherwise
 * write a fresh key each time). Parsed by `ip-address`, not by hand.
 */
export const clientNetwork = (ip: string): string => {
  const address = ip.trim();
  const version = isIP(address);
  if (version === 4) return address;
  if (version !== 6) return UNKNOWN_NETWORK;
  const v6 = new Address6(address.replace(/%.*$/, ""));
  if (v6.isMapped4()) return v6.to4().correctForm();
  return `${new Address6(`${v6.correctForm()}/64`).startAddress().correctForm()}/64`;
};
