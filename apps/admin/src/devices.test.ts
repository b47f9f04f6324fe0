import { describe, expect, it } from "vitest";
import { describeDevice, ipNetwork, shortId } from "./devices";

describe("session rows", () => {
  it("names the browser and system of a user agent", () => {
    expect(
      describeDevice(
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.85 Safari/537.36",
      ),
    ).toBe("Chrome 131 · Linux");
    expect(
      describeDevice(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      ),
    ).toBe("Safari 17 · iOS");
  });

  it("says what an unknown client is, and nothing for an empty or hostile one", () => {
    expect(describeDevice("")).toBe("");
    expect(describeDevice("   ")).toBe("");
    expect(describeDevice("curl/8.5.0")).toMatch(/curl/i);
    expect(describeDevice("<script>alert(1)</script>".repeat(200)).length).toBeGreaterThan(0);
  });

  it("shows the network, not the host", () => {
    expect(ipNetwork("203.0.113.77")).toBe("203.0.113.0/24");
    expect(ipNetwork("::ffff:198.51.100.9")).toBe("198.51.100.0/24");
    expect(ipNetwork("2001:DB8:85a3:1:2:3:4:5")).toBe("2001:db8:85a3::/48");
    expect(ipNetwork("2001:db8::1")).toBe("2001:db8:0::/48");
    expect(ipNetwork("::1")).toBe("0:0:0::/48");
    expect(ipNetwork("")).toBe("");
  });

  it("shortens an id to its random tail, which tells sessions begun together apart", () => {
    // UUIDv7: sessions begun together share the leading (time) digits, never the random tail.
    expect(shortId("0193a6c2-7f00-7000-8000-00000000a0b1")).toBe("0000a0b1");
    expect(shortId("0193a6c2-7f00-7000-8000-0000c3d40001")).not.toBe(
      shortId("0193a6c2-7f00-7000-8000-000000000001"),
    );
  });
});
