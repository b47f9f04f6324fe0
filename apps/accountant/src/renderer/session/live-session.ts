import { type Client, createClient } from "graphql-ws";

/*
 * The live sign-out: the app listens to `sessionDeleted` over GraphQL's WebSocket (graphql-ws, the access
 * token in connection_init; docs/decisions/0010-graphql-subscriptions-over-websocket-only.md). The server
 * announces the end of the login session the tokens live on (an administrator ended it, the user signed
 * out on another device, the organization was deactivated) and then closes the socket with 4401
 * (docs/decisions/0011-graphql-socket-authorization.md, 0028-socket-credential-sweep.md). Either way the app
 * signs out at once. A lost network is retried with backoff; a refused token is not retried, so a dead
 * credential cannot make the app knock forever.
 */

/**
 * Why the app signed out by itself: the server said why its session ended (the organization was
 * deactivated, an administrator ended it, the user signed out on another device), or it ended without
 * a reason heard (`ended`: e.g. the socket closed first), or its credentials were refused
 * (docs/decisions/0086-setup-idempotent-creates-sign-out-reasons.md).
 */
export type SignedOutReason = "deactivated" | "admin" | "elsewhere" | "ended" | "refused";

/** The server's `SessionEndReason` as the app words it. */
export const reasonOfEnd = (endReason: string | null | undefined): SignedOutReason =>
  endReason === "ORGANIZATION_DEACTIVATED"
    ? "deactivated"
    : endReason === "ENDED_BY_ADMIN"
      ? "admin"
      : endReason === "SIGNED_OUT"
        ? "elsewhere"
        : "ended";

export type LiveSessionOptions = {
  /** ws(s)://host/api/graphql */
  url: string;
  accessToken: () => Promise<string | null>;
  /** The login session's public id (the ID token's `sid`); without it only the socket's close is heard. */
  sessionId: string | undefined;
  onSignedOut: (reason: SignedOutReason) => void;
  /** Each time the socket is (again) open and acknowledged. */
  onConnected?: () => void;
  retryWait?: (retries: number) => Promise<void>;
  webSocketImpl?: unknown;
};

/** The server's close codes for dead credentials; graphql-ws would retry 4403, we must not. */
const REFUSED_CODES = new Set([4401, 4403]);
/** An access token that reached its expiry is not a sign-out: a fresh one (the host refreshes) goes on. */
const TOKEN_EXPIRED = "Token expired";
const SESSION_ENDED = "Session ended";
/** The close's reason when the organization was deactivated (the event may have lost the race). */
const TENANT_DEACTIVATED = "Organization deactivated";

/** 0.5 s, 1 s, 2 s … at most 15 s, with jitter so many apps do not return in step after an outage. */
export const backoff = async (retries: number) => {
  const delay = Math.min(15_000, 500 * 2 ** retries) * (0.75 + Math.random() * 0.5);
  await new Promise((resolve) => setTimeout(resolve, delay));
};

type CloseLike = { code: number; reason: string };
const isClose = (value: unknown): value is CloseLike =>
  typeof value === "object" && value !== null && "code" in value && "reason" in value;

const SUBSCRIPTION = "subscription AppSessionDeleted { sessionDeleted { token endReason } }";
const MY_SESSIONS = "query AppMySessions { mySessions { token } }";

/** Starts listening; the returned function stops (on unmount or after the app signed out). */
export const startLiveSession = (options: LiveSessionOptions): (() => void) => {
  let stopped = false;
  let client: Client | null = null;
  let unsubscribe = () => {};
  // Since the last refusal for an expired token: was a socket accepted? If not, the fresh token was
  // refused too, and the app signs out instead of trying again.
  let acceptedSinceExpiry = true;
  // Is the current socket accepted? A socket closed for dead credentials while it ran lost them
  // elsewhere (its session ended, its grant was revoked: the server's re-check may close it before the
  // `sessionDeleted` event arrives); one refused at once (after an outage) was simply refused.
  let accepted = false;

  const stop = () => {
    stopped = true;
    unsubscribe();
    void client?.dispose();
  };
  const signOut = (reason: SignedOutReason) => {
    if (stopped) return;
    stop();
    options.onSignedOut(reason);
  };

  /** After each (re)connect: is the session still live? An end announced while offline was missed. */
  const checkStillLive = (current: Client) => {
    if (!options.sessionId) return;
    current.subscribe<{ mySessions: { token: string }[] }>(
      { query: MY_SESSIONS },
      {
        next: (result) => {
          const tokens = result.data?.mySessions.map((session) => session.token);
          if (tokens && !tokens.includes(options.sessionId ?? "")) signOut("ended");
        },
        error: () => undefined,
        complete: () => undefined,
      },
    );
  };

  const open = () => {
    if (stopped) return;
    const current = createClient({
      url: options.url,
      lazy: false,
      retryAttempts: Number.POSITIVE_INFINITY,
      retryWait: options.retryWait ?? backoff,
      shouldRetry: (event) => !(isClose(event) && REFUSED_CODES.has(event.code)),
      onNonLazyError: () => undefined,
      ...(options.webSocketImpl ? { webSocketImpl: options.webSocketImpl } : {}),
      connectionParams: async () => {
        const token = await options.accessToken();
        // The host could not refresh: the grant is gone. Nothing to connect with.
        if (!token) {
          signOut("refused");
          throw new Error("signed out");
        }
        return { Authorization: `Bearer ${token}` };
      },
      on: {
        connecting: () => {
          accepted = false;
        },
        connected: () => {
          accepted = true;
          acceptedSinceExpiry = true;
          checkStillLive(current);
          options.onConnected?.();
        },
      },
    });
    client = current;
    unsubscribe = current.subscribe<{ sessionDeleted: { token: string; endReason: string | null } }>(
      { query: SUBSCRIPTION },
      {
        next: (result) => {
          const ended = result.data?.sessionDeleted;
          if (ended && ended.token === options.sessionId) signOut(reasonOfEnd(ended.endReason));
        },
        error: (error) => {
          if (stopped) return;
          if (isClose(error) && REFUSED_CODES.has(error.code)) {
            if (error.reason === TOKEN_EXPIRED && acceptedSinceExpiry) {
              acceptedSinceExpiry = false;
              void current.dispose();
              open();
              return;
            }
            if (error.reason === TENANT_DEACTIVATED) {
              signOut("deactivated");
              return;
            }
            signOut(error.reason === SESSION_ENDED || accepted ? "ended" : "refused");
            return;
          }
          // Anything else (a GraphQL error): listen again after a pause rather than give up.
          void current.dispose();
          void (options.retryWait ?? backoff)(3).then(open);
        },
        complete: () => {
          if (stopped) return;
          void current.dispose();
          open();
        },
      },
    );
  };

  open();
  return stop;
};

/** The GraphQL socket's URL on the server the app talks to ("" = the page's own origin). */
export const graphqlSocketUrl = (serverUrl: string) =>
  `${(serverUrl || window.location.origin).replace(/^http/, "ws")}/api/graphql`;
