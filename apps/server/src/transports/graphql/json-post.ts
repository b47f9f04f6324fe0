import type { ExecutionResult } from "graphql";
import { isAsyncIterable, processRegularResult, type YogaServerInstance } from "graphql-yoga";

/*
 * One operation POSTed as JSON, answered as yoga answers it — the same plugins, parse and validation
 * cache, execution, error handling, status, headers and body — without the Fetch objects around it:
 * yoga's Node adapter builds a Fetch Request from the Node request (its headers, an AbortController, the
 * body Fastify parsed serialised again and parsed once more), negotiates a result processor and hands
 * back a Fetch Response the route reads as text (docs/decisions/0112-graphql-single-post-without-fetch.md).
 * Anything else — a batch, a GET, another content type or Accept, a parameter yoga would refuse, a query
 * string — goes through yoga's own handler.
 */

/** The parameters of one GraphQL request, as yoga's `useCheckGraphQLQueryParams` lets them through. */
export type JsonPostParams = {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
  extensions?: Record<string, unknown> | null;
};

/** An answer in yoga's terms: its status, its headers (lower-case names), its body. */
export type GraphqlAnswer = { status: number; headers: [string, string][]; body: string };

/** Accept headers for which yoga picks `application/json` (none means `*\/*`). */
const JSON_ACCEPTS = new Set([undefined, "*/*", "application/json"]);
const PARAMETERS = new Set(["query", "variables", "operationName", "extensions"]);
const JSON_TYPE = "application/json; charset=utf-8";

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isEmptyOrObject = (value: unknown) => value === undefined || value === null || isPlainObject(value);

/** The request as yoga's JSON parser would see it: `application/json` as the first content type. */
const isJsonContent = (contentType: string | undefined) => {
  const first = contentType?.split(",")[0];
  return first === "application/json" || !!first?.startsWith("application/json;");
};

/**
 * The parameters of a request this path answers exactly as yoga would — a POST to the endpoint itself (no
 * query string), JSON in, JSON out, one operation whose parameters yoga accepts — or null: yoga answers it.
 */
export const jsonPostParams = (
  request: {
    method: string;
    url: string;
    headers: { accept?: string | undefined; "content-type"?: string | undefined };
    body: unknown;
  },
  endpoint: string,
): JsonPostParams | null => {
  if (request.method !== "POST" || request.url !== endpoint) return null;
  if (!JSON_ACCEPTS.has(request.headers.accept) || !isJsonContent(request.headers["content-type"]))
    return null;
  const body = request.body;
  if (!isPlainObject(body)) return null;
  for (const key in body) if (body[key] != null && !PARAMETERS.has(key)) return null;
  if (typeof body.query !== "string") return null;
  if (!isEmptyOrObject(body.variables) || !isEmptyOrObject(body.extensions)) return null;
  const name = body.operationName;
  if (name !== undefined && name !== null && typeof name !== "string") return null;
  return body as JsonPostParams;
};

/**
 * Runs `params` through yoga's own operation handler (`getResultForParams`: its parameter hooks, the
 * enveloped parse, validate, context and execute, its error handling) and words the result as yoga's
 * regular result processor does for `application/json`. `signal` is the request's: it aborts when the
 * client goes away, as the Fetch Request's signal yoga's adapter builds.
 */
export const answerJsonPost = async <ServerContext extends Record<string, unknown>>(
  yoga: YogaServerInstance<ServerContext, Record<string, unknown>>,
  params: JsonPostParams,
  serverContext: ServerContext,
  signal: AbortSignal,
): Promise<GraphqlAnswer> => {
  // What yoga's plugins read of the request: its method (mutations only by POST) and its signal.
  const request = { method: "POST", signal } as unknown as Request;
  // As yoga's parser hands them on: the body as sent (a null name or variables included).
  const result = (await yoga.getResultForParams({ params: params as never, request }, serverContext)) as
    | ExecutionResult
    | AsyncIterable<unknown>;
  if (isAsyncIterable(result)) {
    // A stream (a subscription) is served over WebSocket only: the route refuses it with 406, as when
    // yoga answers one without a stream processor.
    await (result as AsyncIterableIterator<unknown>).return?.();
    return { status: 406, headers: [], body: "" };
  }
  // A result without errors or extensions: yoga's processor writes exactly this.
  if (!result.errors?.length && !result.extensions) {
    return { status: 200, headers: [["content-type", JSON_TYPE]], body: JSON.stringify(result) };
  }
  const response = processRegularResult(result, yoga.fetchAPI, "application/json");
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => {
    headers.push([name, value]);
  });
  return { status: response.status, headers, body: await response.text() };
};
