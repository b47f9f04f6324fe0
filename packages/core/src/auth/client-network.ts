import { isIPv6 } from "node:net";

/**
 * The network a client address stands for in sign-in budgets: an IPv4 address as is (also when
 * written IPv4-mapped, `::ffff:1.2.3.4`), an IPv6 address by its /64 (`2001:db8:1:2::/64`): one
 * host is usually handed a whole /64, so counting single IPv6 addresses would let it rotate through
 * 2^64 budgets. Anything else (no address known) is returned unchanged.
 */
export const clientNetwork = (ip: string): string => {
  const address = ip.trim().toLowerCase().replace(/%.*$/, "");
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(address)) return address;
  const groupsOf = (part: string) => {
    if (part === "") return [];
    const groups = part.split(":");
    // An embedded IPv4 tail (`64:ff9b::192.0.2.1`) fills the last two groups.
    const last = groups[groups.length - 1] ?? "";
    if (last.includes(".")) groups.splice(-1, 1, "0", "0");
    return groups;
  };
  const [head = "", tail] = address.split("::");
  const front = groupsOf(head);
  const back = tail === undefined ? [] : groupsOf(tail);
  const groups = [...front, ...Array(Math.max(0, 8 - front.length - back.length)).fill("0"), ...back];
  const prefix = groups.slice(0, 4).map((group) => Number.parseInt(group || "0", 16).toString(16));
  return `${prefix.join(":")}::/64`;
};
