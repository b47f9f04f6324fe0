import type { HisobBridge, SessionInfo } from "../../shared/bridge";
import {
  discover,
  endSessionUrl,
  finishSignIn,
  type PendingSignIn,
  type Provider,
  REFRESH_MARGIN_MS,
  refresh,
  revokeTokens,
  startSignIn,
  type Tokens,
} from "../../shared/oidc-client";

/*
 * The browser host: the app at {server}/app signs in with a redirect to the provider and back to
 * /app/callback. Tokens live in memory only; a reload signs in again through the provider's own login
 * session (no password asked while it lasts). What must survive the redirect — state, nonce, the PKCE
 * verifier and where to return — is kept in sessionStorage for that one trip and removed at once.
 */

const PENDING_KEY = "hisob.pendingSignIn";
const CALLBACK_PATH = "/app/callback";

type Pending = PendingSignIn & { returnTo: string };

export const createBrowserBridge = (): HisobBridge => {
  const origin = window.location.origin;
  let provider: Provider | null = null;
  let tokens: Tokens | null = null;
  let refreshing: Promise<Tokens> | null = null;

  const getProvider = async () => {
    provider ??= await discover(origin);
    return provider;
  };
  const info = (current: Tokens): SessionInfo => ({ user: current.claims, expiresAt: current.expiresAt });

  const bridge: HisobBridge = {
    host: "browser",
    appVersion: async () => import.meta.env.VITE_APP_VERSION ?? "0.1.0",
    serverUrl: async () => origin,

    restoreSession: async () => {
      if (tokens) return info(tokens);
      if (window.location.pathname !== CALLBACK_PATH) return null;
      const saved = sessionStorage.getItem(PENDING_KEY);
      sessionStorage.removeItem(PENDING_KEY);
      const callback = new URL(window.location.href);
      // Leave the callback URL at once: the code is single-use and must not stay in history.
      const pending = saved ? (JSON.parse(saved) as Pending) : null;
      window.history.replaceState(null, "", pending?.returnTo ?? "/app/");
      if (!pending) throw new Error("no sign-in was started in this tab");
      tokens = await finishSignIn(await getProvider(), callback, pending);
      return info(tokens);
    },

    signIn: async () => {
      const current = await getProvider();
      // The provider's issuer decides the registered redirect URI: sign in on its origin.
      const issuerOrigin = new URL(current.as.issuer).origin;
      if (issuerOrigin !== origin) {
        window.location.assign(`${issuerOrigin}/app/`);
        return null;
      }
      const { url, pending } = await startSignIn(current, `${origin}${CALLBACK_PATH}`, {
        ui_locales: document.documentElement.lang || "en",
      });
      const here = window.location.pathname + window.location.search;
      const returnTo = here.startsWith("/app/") && here !== CALLBACK_PATH ? here : "/app/";
      sessionStorage.setItem(PENDING_KEY, JSON.stringify({ ...pending, returnTo } satisfies Pending));
      window.location.assign(url.toString());
      return null;
    },

    accessToken: async () => {
      if (!tokens) return null;
      if (tokens.expiresAt - Date.now() > REFRESH_MARGIN_MS || !tokens.refreshToken)
        return tokens.accessToken;
      refreshing ??= refresh(await getProvider(), tokens).finally(() => {
        refreshing = null;
      });
      try {
        tokens = await refreshing;
      } catch {
        tokens = null;
        return null;
      }
      return tokens.accessToken;
    },

    signOut: async () => {
      const current = await getProvider();
      const ending = tokens;
      tokens = null;
      if (ending) await revokeTokens(current, ending).catch(() => undefined);
      window.location.assign(endSessionUrl(current, ending, `${origin}/app/`).toString());
    },

    forgetSession: async () => {
      tokens = null;
    },

    openExternal: async (url) => {
      window.open(url, "_blank", "noopener,noreferrer");
    },

    saveFile: async (name, bytes) => {
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([bytes as BlobPart]));
      link.download = name;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      return true;
    },

    printToPdf: async () => {
      window.print();
      return true;
    },
  };
  return bridge;
};
