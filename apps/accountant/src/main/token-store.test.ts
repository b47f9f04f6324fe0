import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";

// Electron's safeStorage, mocked: encryption reverses the bytes and marks them, so a test can tell
// that what reached the disk is not the plain token.
const backend = { name: "gnome_libsecret", available: true };
vi.mock("electron", () => ({
  safeStorage: {
    isEncryptionAvailable: () => backend.available,
    getSelectedStorageBackend: () => backend.name,
    encryptString: (plain: string) => Buffer.from(`enc:${[...plain].reverse().join("")}`),
    decryptString: (data: Buffer) => [...data.toString().slice(4)].reverse().join(""),
  },
}));

const { safeStorage } = await import("electron");
const { createTokenStore } = await import("./token-store");

const file = () => path.join(mkdtempSync(path.join(tmpdir(), "hisob-token-")), "refresh-token.bin");

describe("the refresh token at rest (safeStorage)", () => {
  it("is stored encrypted and read back", async () => {
    backend.name = "gnome_libsecret";
    const target = file();
    const store = createTokenStore(safeStorage, target, "linux");
    expect(store.unavailableReason()).toBeNull();
    expect(await store.save("refresh-secret-123")).toBe(true);
    expect(readFileSync(target, "utf8")).not.toContain("refresh-secret-123");
    expect(await store.load()).toBe("refresh-secret-123");
    await store.clear();
    expect(await store.load()).toBeNull();
  });

  it("refuses Linux's basic_text fallback (a fixed key): nothing is written", async () => {
    backend.name = "basic_text";
    const target = file();
    const store = createTokenStore(safeStorage, target, "linux");
    expect(store.unavailableReason()).toMatch(/fixed key/);
    expect(await store.save("refresh-secret-123")).toBe(false);
    expect(() => readFileSync(target)).toThrow();
    expect(await store.load()).toBeNull();
  });

  it("refuses when the system has no encryption at all", async () => {
    backend.name = "gnome_libsecret";
    backend.available = false;
    const store = createTokenStore(safeStorage, file(), "linux");
    expect(store.unavailableReason()).toMatch(/no encryption/);
    expect(await store.save("x")).toBe(false);
    backend.available = true;
  });
});
