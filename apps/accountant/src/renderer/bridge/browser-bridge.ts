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
 * /app/callback. What must survive the redirect — state, nonce, the PKCE verifier and where to return —
 * is kept in sessionStorage for that one trip and removed at once.
 *
 * The refresh token lives in memory only. The access token, the ID token and its claims are also kept
 * in this tab's sessionStorage, so a reload of the tab opens straight on its screen instead of going
 * through the provider again (docs/decisions/0089-screens-as-fast-as-their-data.md). A page that
 * resumed that way has no refresh token: shortly before the access token expires it signs in again
 * through the provider's login session, back to the same screen, as every reload did before.
 */

const PENDING_KEY = "hisob.pendingSignIn";
const SESSION_KEY = "hisob.session";
const CALLBACK_PATH = "/app/callback";
/** A kept access token with less than this left is not resumed: the tab signs in afresh instead. */
const RESUME_MIN_MS = 5 * 60_000;

type Pending = PendingSignIn & { returnTo: string };
type Kept = Omit<Tokens, "refreshToken">;

const keep = (tokens: Tokens | null) => {
  try {
    if (!tokens) {
      sessionStorage.removeItem(SESSION_KEY);
      return;
    }
    const { refreshToken: _memoryOnly, ...kept } = tokens;
    sessionStorage.setItem(SESSION_KEY, JSON.stringify(kept satisfies Kept));
  } catch {
    // Storage full or refused (a private window's quota): the tab simply signs in on its next load.
  }
};

/** This tab's kept session, when it still has long enough to live; anything else is dropped. */
export const keptSession = (now = Date.now()): Tokens | null => {
  try {
    const raw = sessionStorage.getItem(SESSION_KEY);
    if (!raw) return null;
    const kept = JSON.parse(raw) as Partial<Kept>;
    if (
      typeof kept.accessToken === "string" &&
      typeof kept.idToken === "string" &&
      typeof kept.expiresAt === "number" &&
      kept.expiresAt - now > RESUME_MIN_MS &&
      typeof kept.claims?.sub === "string"
    )
      return { ...(kept as Kept), refreshToken: null };
    sessionStorage.removeItem(SESSION_KEY);
  } catch {
    // Unreadable: treated as none.
  }
  return null;
};

/** Where the sign-in under way returns to (read on the callback, before the bridge consumes it). */
export const pendingReturnTo = (): string | null => {
  try {
    const saved = sessionStorage.getItem(PENDING_KEY);
    return saved ? ((JSON.parse(saved) as Partial<Pending>).returnTo ?? null) : null;
  } catch {
    return null;
  }
};

export const createBrowserBridge = (): HisobBridge => {
  const origin = window.location.origin;
  let provider: Provider | null = null;
  let tokens: Tokens | null = window.location.pathname === CALLBACK_PATH ? null : keptSession();
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
      keep(tokens);
      return info(tokens);
    },

    signIn: async () => {
      tokens = null;
      keep(null);
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
      if (tokens.expiresAt - Date.now() > REFRESH_MARGIN_MS) return tokens.accessToken;
      if (!tokens.refreshToken) {
        // Resumed from this tab's storage, so no refresh token: a fresh sign-in through the provider's
        // login session, back to this screen (the page leaves).
        await bridge.signIn();
        return null;
      }
      refreshing ??= refresh(await getProvider(), tokens).finally(() => {
        refreshing = null;
      });
      try {
        tokens = await refreshing;
        keep(tokens);
      } catch {
        tokens = null;
        keep(null);
        return null;
      }
      return tokens.accessToken;
    },

    signOut: async () => {
      // Forget the tokens first: a provider that cannot be reached must not leave the tab signed in.
      const ending = tokens;
      tokens = null;
      keep(null);
      const current = await getProvider();
      if (ending) await revokeTokens(current, ending).catch(() => undefined);
      window.location.assign(endSessionUrl(current, ending, `${origin}/app/`).toString());
    },

    forgetSession: async () => {
      tokens = null;
      keep(null);
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
