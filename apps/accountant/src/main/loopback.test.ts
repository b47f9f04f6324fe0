import { describe, expect, it } from "vitest";
import { startLoopback } from "./loopback";

describe("the loopback redirect listener (RFC 8252)", () => {
  it("listens on 127.0.0.1 on a port the system picks, takes one callback, then closes", async () => {
    const loopback = await startLoopback();
    expect(loopback.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const stray = await fetch(loopback.redirectUri.replace("/callback", "/favicon.ico"));
    expect(stray.status).toBe(404);
    const page = await fetch(`${loopback.redirectUri}?code=abc&state=xyz`);
    expect(page.status).toBe(200);
    const url = await loopback.result;
    expect(url.searchParams.get("code")).toBe("abc");
    expect(url.searchParams.get("state")).toBe("xyz");
    await expect(fetch(loopback.redirectUri)).rejects.toThrow();
  });

  it("gives up after its timeout", async () => {
    const loopback = await startLoopback(50);
    await expect(loopback.result).rejects.toThrow(/timed out/);
  });
});
