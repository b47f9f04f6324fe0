import type { AddressInfo } from "node:net";
import type { TestApp } from "../testing/test-app";

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
