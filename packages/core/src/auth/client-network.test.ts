import { describe, expect, it } from "vitest";
import { clientNetwork } from "./client-network";

describe("clientNetwork", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002::1", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8::/64"],
    ["::1", "::/64"],
    ["fe80::1%eth0", "fe80::/64"],
    ["64:ff9b::192.0.2.1", "64:ff9b::/64"],
    // Not addresses: one shared network, never a key a caller can write afresh each time.
    ["", "unknown"],
    ["unknown", "unknown"],
    ["foo", "unknown"],
    ["1.2.3.4:80", "unknown"],
    ["[::1]", "unknown"],
    ["01.2.3.4", "unknown"],
    ["x".repeat(2000), "unknown"],
  ])("%s → %s", (ip, network) => {
    expect(clientNetwork(ip)).toBe(network);
  });

  it("puts every address of one /64 in one network", () => {
    const networks = new Set(
      Array.from({ length: 50 }, (_, i) => clientNetwork(`2001:db8:aa:bb:${i.toString(16)}::${i + 1}`)),
    );
    expect([...networks]).toEqual(["2001:db8:aa:bb::/64"]);
  });
});
