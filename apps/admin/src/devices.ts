import Bowser from "bowser";

/** "Chrome 131 · Linux" from a user agent, parsed by bowser; "" when there is none. */
export const describeDevice = (userAgent: string): string => {
  if (!userAgent.trim()) return "";
  const { browser, os, platform } = Bowser.parse(userAgent);
  const name = [browser.name, browser.version?.split(".")[0]].filter(Boolean).join(" ");
  const system = os.name ?? platform.type ?? "";
  const described = [name, system].filter(Boolean).join(" · ");
  // A client bowser does not know (curl, an SDK) still says what it is: its own first word.
  return described || (userAgent.split(/[\s/]/)[0] ?? "");
};

/** The network an address belongs to (IPv4 /24, IPv6 /48): where a session is from, without the host. */
export const ipNetwork = (ip: string): string => {
  const address = ip.trim().replace(/^::ffff:(?=\d+\.)/i, "");
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/.exec(address);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  if (address.includes(":")) {
    const [head = "", tail] = address.split("::");
    const groups = head ? head.split(":") : [];
    // "a:b::c" keeps only what is before "::"; the missing groups are zeros.
    while (groups.length < 3 && tail !== undefined) groups.push("0");
    if (groups.length >= 3)
      return `${groups
        .slice(0, 3)
        .map((g) => g.toLowerCase())
        .join(":")}::/48`;
  }
  return address;
};

/**
 * The last 8 hex digits of a session id: enough to tell the rows apart and to find it in the audit log.
 * Not the first block: ids are UUIDv7, whose first digits are the time, the same for sessions begun
 * within a minute or so.
 */
export const shortId = (id: string): string => id.replaceAll("-", "").slice(-8);
