import { readFile, rm, writeFile } from "node:fs/promises";

/*
 * The refresh token at rest: encrypted by the operating system's keystore through Electron's
 * safeStorage, in one file of the app's data directory. Never in localStorage or plain text: when
 * safeStorage has no real keystore (Linux without a secret service falls back to "basic_text", a
 * fixed key), nothing is stored and the user signs in at each start.
 */

export type SafeStorageLike = {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
  getSelectedStorageBackend?: () => string;
};

export type TokenStore = {
  /** Why tokens are not kept between starts, or null when they are. */
  unavailableReason(): string | null;
  save(refreshToken: string): Promise<boolean>;
  load(): Promise<string | null>;
  clear(): Promise<void>;
};

export const createTokenStore = (
  safeStorage: SafeStorageLike,
  file: string,
  platform = process.platform,
): TokenStore => {
  const unavailableReason = () => {
    if (!safeStorage.isEncryptionAvailable())
      return "the operating system offers no encryption for stored secrets";
    if (platform === "linux" && safeStorage.getSelectedStorageBackend?.() === "basic_text") {
      return "no secret service (keyring) is running, and Electron's fallback would store the token with a fixed key";
    }
    return null;
  };
  return {
    unavailableReason,
    save: async (refreshToken) => {
      if (unavailableReason()) return false;
      await writeFile(file, safeStorage.encryptString(refreshToken), { mode: 0o600 });
      return true;
    },
    load: async () => {
      if (unavailableReason()) return null;
      try {
        return safeStorage.decryptString(await readFile(file));
      } catch {
        return null; // missing, or encrypted by another keystore: sign in again
      }
    },
    clear: async () => {
      await rm(file, { force: true });
    },
  };
};
