import { describe, expect, it, vi } from "vitest";
import { checkCall, type IpcHandlers, registerIpc } from "./ipc";

const app = { senderFrame: { url: "app://hisob/app/", parent: null } };

describe("IPC: allow-listed channels, trusted senders, validated arguments", () => {
  it("accepts well-formed calls from the app", () => {
    expect(checkCall("hisob:accessToken", app, [])).toBeNull();
    expect(checkCall("hisob:openExternal", app, ["https://hisob.uz/help"])).toBeNull();
    expect(checkCall("hisob:saveFile", app, ["payments.xlsx", new Uint8Array([1, 2])])).toBeNull();
  });

  it("refuses unknown channels, foreign or child frames, and bad arguments", () => {
    expect(checkCall("hisob:exec", app, [])).toBe("unknown channel");
    expect(
      checkCall("hisob:accessToken", { senderFrame: { url: "https://evil.example/", parent: null } }, []),
    ).toBe("untrusted sender");
    expect(checkCall("hisob:accessToken", { senderFrame: { url: "app://hisob/app/", parent: {} } }, [])).toBe(
      "untrusted sender",
    );
    expect(checkCall("hisob:accessToken", { senderFrame: null }, [])).toBe("untrusted sender");
    expect(checkCall("hisob:accessToken", app, ["extra"])).toMatch(/^invalid arguments/);
    expect(checkCall("hisob:openExternal", app, ["javascript:alert(1)"])).toMatch(/^invalid arguments/);
    expect(checkCall("hisob:openExternal", app, ["file:///etc/passwd"])).toMatch(/^invalid arguments/);
    expect(checkCall("hisob:saveFile", app, ["../../.bashrc", new Uint8Array()])).toMatch(
      /^invalid arguments/,
    );
    expect(checkCall("hisob:saveFile", app, ["a.txt", "not bytes"])).toMatch(/^invalid arguments/);
  });

  it("registered handlers run only for accepted calls", async () => {
    const registered = new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>();
    const handlers = Object.fromEntries(
      [
        "hisob:appVersion",
        "hisob:serverUrl",
        "hisob:restoreSession",
        "hisob:signIn",
        "hisob:accessToken",
        "hisob:signOut",
        "hisob:forgetSession",
        "hisob:openExternal",
        "hisob:saveFile",
        "hisob:printToPdf",
      ].map((channel) => [channel, vi.fn(async () => channel)]),
    ) as unknown as IpcHandlers;
    registerIpc({ handle: (channel, listener) => registered.set(channel, listener as never) }, handlers);
    expect(registered.size).toBe(10);
    const open = registered.get("hisob:openExternal");
    await expect(open?.(app, "https://hisob.uz/")).resolves.toBe("hisob:openExternal");
    await expect(open?.(app, "javascript:alert(1)")).rejects.toThrow(/refused: invalid arguments/);
    await expect(
      open?.({ senderFrame: { url: "https://evil.example/", parent: null } }, "https://hisob.uz/"),
    ).rejects.toThrow(/untrusted sender/);
    expect(handlers["hisob:openExternal"]).toHaveBeenCalledTimes(1);
  });
});
