import type { SessionInfo } from "../shared/bridge";
import {
  discover,
  endSessionUrl,
  finishSignIn,
  type Provider,
  REFRESH_MARGIN_MS,
  refresh,
  revokeTokens,
  startSignIn,
  type Tokens,
} from "../shared/oidc-client";
import { startLoopback } from "./loopback";
import type { TokenStore } from "./token-store";

/*
 * The desktop app's sign-in, in the main process: the system browser opens the provider's authorize
 * page, a loopback listener receives the code (RFC 8252), oauth4webapi checks everything, the refresh
 * token is kept encrypted (safeStorage) and the access token only in memory. The renderer sees the
 * access token and the user's name, nothing else.
 */

export type DesktopAuthDeps = {
  serverUrl: string;
  store: TokenStore;
  openExternal: (url: string) => Promise<void>;
  fetch?: typeof fetch;
};

export const createDesktopAuth = (deps: DesktopAuthDeps) => {
  let provider: Provider | null = null;
  let tokens: Tokens | null = null;
  let refreshing: Promise<Tokens> | null = null;
  const getProvider = async () => {
    provider ??= await discover(deps.serverUrl, deps.fetch);
    return provider;
  };
  const info = (current: Tokens): SessionInfo => ({ user: current.claims, expiresAt: current.expiresAt });
  const keep = async (next: Tokens) => {
    tokens = next;
    if (next.refreshToken) await deps.store.save(next.refreshToken);
    return next;
  };

  const refreshNow = async (current: Tokens) => {
    refreshing ??= refresh(await getProvider(), current)
      .then(keep)
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  };

  return {
    /** A stored refresh token becomes a session again; null when there is none (or it was revoked). */
    restoreSession: async (): Promise<SessionInfo | null> => {
      if (tokens) return info(tokens);
      const refreshToken = await deps.store.load();
      if (!refreshToken) return null;
      try {
        // An ID token is not stored; the refresh answer brings a new one.
        return info(
          await refreshNow({ accessToken: "", expiresAt: 0, refreshToken, idToken: "", claims: { sub: "" } }),
        );
      } catch {
        await deps.store.clear();
        return null;
      }
    },

    signIn: async (): Promise<SessionInfo> => {
      const loopback = await startLoopback();
      try {
        const current = await getProvider();
        const { url, pending } = await startSignIn(current, loopback.redirectUri);
        await deps.openExternal(url.toString());
        const callback = await loopback.result;
        return info(await keep(await finishSignIn(current, callback, pending)));
      } finally {
        loopback.close();
      }
    },

    accessToken: async (): Promise<string | null> => {
      if (!tokens) return null;
      if (tokens.expiresAt - Date.now() > REFRESH_MARGIN_MS) return tokens.accessToken;
      try {
        return (await refreshNow(tokens)).accessToken;
      } catch {
        tokens = null;
        return null;
      }
    },

    /** Forgets the tokens (ended elsewhere or refused: nothing is left to revoke), also on disk. */
    forgetSession: async (): Promise<void> => {
      tokens = null;
      await deps.store.clear();
    },

    /** Revokes both tokens, forgets them, and ends the provider's login session in the system browser. */
    signOut: async (): Promise<void> => {
      const ending = tokens;
      tokens = null;
      await deps.store.clear();
      if (!ending) return;
      const current = await getProvider();
      await revokeTokens(current, ending);
      if (ending.idToken) await deps.openExternal(endSessionUrl(current, ending).toString());
    },
  };
};

export type DesktopAuth = ReturnType<typeof createDesktopAuth>;
