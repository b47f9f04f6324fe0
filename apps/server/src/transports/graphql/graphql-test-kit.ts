import type { AddressInfo } from "node:net";
import type { Credentials, LiveContext } from "@hisob/core";
import { WebSocket } from "ws";
import type { TestApp } from "../../testing/test-app";

/** A test app listening on a real port: GraphQL over real HTTP (fetch) and WebSocket. */
export const listen = async (testApp: TestApp) => {
  await testApp.app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = testApp.app.server.address() as AddressInfo;
  return {
    httpUrl: `http://127.0.0.1:${port}/api/graphql`,
    wsUrl: `ws://127.0.0.1:${port}/api/graphql`,
    port,
  };
};

export type GraphqlResponse = {
  status: number;
  headers: Headers;
  body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; path?: string[]; locations?: unknown; extensions: Record<string, unknown> }[];
  };
};

export const gql = async (
  url: string,
  query: string,
  options: {
    variables?: Record<string, unknown>;
    headers?: Record<string, string>;
    operationName?: string;
  } = {},
): Promise<GraphqlResponse> => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...options.headers },
    body: JSON.stringify({ query, variables: options.variables, operationName: options.operationName }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
};

/** The first error's code, or undefined. */
export const codeOf = (response: GraphqlResponse) => response.body.errors?.[0]?.extensions.code;

/** Polls `condition` until it holds (a deadline, not a fixed sleep: it returns as soon as it is true). */
export const waitFor = async (condition: () => Promise<boolean>, what: string, deadlineMs = 15_000) => {
  const deadline = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

/** One turn of the event loop: what promises started by the last event settle (no time is waited). */
export const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** How a socket resolves its caller (the context service's `resolveLive`); tests wrap it. */
type ResolveLive = (credentials: Credentials) => Promise<LiveContext | null>;

/**
 * Holds the server's resolutions of `token` (after their statement ran; the first `held` of them, all
 * by default) until `release`: the test decides what happens to the socket meanwhile. `release` resolves
 * once what the held resolutions ran on with (graphql-ws's onConnect, onSubscribe) has finished.
 */
export const holdResolutions = (testApp: TestApp, token: string, options: { held?: number } = {}) => {
  const context = testApp.services.context;
  const original: ResolveLive = context.resolveLive;
  const held: Promise<unknown>[] = [];
  let arrivals = 0;
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  context.resolveLive = async (credentials) => {
    const result = await original(credentials);
    if (credentials.bearerToken !== token) return result;
    arrivals += 1;
    if (arrivals > (options.held ?? Number.POSITIVE_INFINITY)) return result;
    const handed = released.then(() => result);
    held.push(handed);
    return handed;
  };
  return {
    arrivals: () => arrivals,
    release: async () => {
      release();
      await Promise.all(held);
      context.resolveLive = original;
      await nextTurn();
    },
  };
};

/** Counts the server's resolutions of `token` from now until `stop`. */
export const countResolutions = (testApp: TestApp, token: string) => {
  const context = testApp.services.context;
  const original: ResolveLive = context.resolveLive;
  let count = 0;
  context.resolveLive = async (credentials) => {
    const result = await original(credentials);
    if (credentials.bearerToken === token) count += 1;
    return result;
  };
  return {
    count: () => count,
    stop: () => {
      context.resolveLive = original;
    },
  };
};

/** A raw graphql-transport-ws connection: the test sends the messages and decides when it goes. */
export const openRawSocket = async (url: string) => {
  const socket = new WebSocket(url, "graphql-transport-ws");
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  return socket;
};

/** Counts the upgraded connections the server has seen close (their TCP socket, then the WebSocket on it). */
export const countServerCloses = (testApp: TestApp) => {
  let closed = 0;
  testApp.app.server.on("upgrade", (_request, socket) => {
    socket.once("close", () => {
      closed += 1;
    });
  });
  return {
    count: () => closed,
    /** Until `count` closed and what their close runs (the WebSocket's close, graphql-ws's handlers) ran. */
    reached: async (count: number) => {
      await waitFor(async () => closed >= count, "the server to see the socket close");
      await nextTurn();
    },
  };
};

/**
 * Opens a raw socket, sends connection_init with `token` and drops the connection (no close frame) once
 * `resolving()` says the server is resolving its caller; resolves when the server has seen it close.
 */
export const dropWhileConnecting = async (
  url: string,
  token: string,
  closes: ReturnType<typeof countServerCloses>,
  resolving: () => boolean,
) => {
  const closed = closes.count();
  const socket = await openRawSocket(url);
  socket.send(JSON.stringify({ type: "connection_init", payload: { Authorization: `Bearer ${token}` } }));
  await waitFor(async () => resolving(), "the server to resolve the socket's caller");
  socket.terminate();
  await closes.reached(closed + 1);
};
