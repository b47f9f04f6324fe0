/*
 * window.hisob: the only way the renderer reaches its host. Electron's preload implements it over
 * allow-listed, schema-validated IPC (src/preload); browsers get src/renderer/bridge/browser-bridge.ts.
 * Tokens never leave the host except the short-lived access token the API calls need.
 */

export type SessionInfo = {
  /** `sid`: the login session's public id (what `sessionDeleted` names when it ends). */
  user: { sub: string; name?: string; email?: string; sid?: string };
  /** Epoch milliseconds when the current access token expires (the host refreshes before). */
  expiresAt: number;
};

export type HisobBridge = {
  readonly host: "browser" | "electron";
  appVersion(): Promise<string>;
  /** The Hisob server the app talks to (configurable in the desktop app). */
  serverUrl(): Promise<string>;
  /**
   * The session this start can resume: finishing a sign-in that just came back from the provider, or
   * a stored refresh token (desktop). Null when a sign-in is needed. Throws when a sign-in came back
   * refused (state mismatch, denied, invalid ID token).
   */
  restoreSession(): Promise<SessionInfo | null>;
  /** Signs in through the provider (the browser leaves the page; the desktop app opens the system browser). */
  signIn(): Promise<SessionInfo | null>;
  /** A valid access token (refreshed when near expiry), or null when signed out. */
  accessToken(): Promise<string | null>;
  /** Revokes the tokens, ends the provider's login session, forgets everything. */
  signOut(): Promise<void>;
  /**
   * Forgets the tokens here without asking the provider (they were ended elsewhere, or refused) and
   * stays on the page, so the app can say why it signed out.
   */
  forgetSession(): Promise<void>;
  openExternal(url: string): Promise<void>;
  /** Saves bytes under a name the user confirms; false when they cancel. */
  saveFile(name: string, bytes: Uint8Array): Promise<boolean>;
  /** Prints the current page (the desktop app saves it as PDF). */
  printToPdf(name: string): Promise<boolean>;
};

declare global {
  interface Window {
    hisob?: HisobBridge;
  }
}
