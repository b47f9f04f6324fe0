import { describe, expect, it } from "vitest";
import { jsonPostParams } from "./json-post";

const ENDPOINT = "/api/graphql";
const post = (body: unknown, headers: Record<string, string | undefined> = {}, url = ENDPOINT) => ({
  method: "POST",
  url,
  headers: { "content-type": "application/json", ...headers },
  body,
});

describe("which requests the single-JSON-POST path answers (the rest is yoga's)", () => {
  it("takes one operation with the parameters yoga accepts", () => {
    expect(jsonPostParams(post({ query: "{ me { id } }" }), ENDPOINT)).toEqual({ query: "{ me { id } }" });
    const full = { query: "query A { me { id } }", variables: { a: 1 }, operationName: "A", extensions: {} };
    expect(jsonPostParams(post(full), ENDPOINT)).toBe(full);
    const nulls = { query: "{ me { id } }", variables: null, operationName: null, extensions: null };
    expect(jsonPostParams(post(nulls), ENDPOINT)).toBe(nulls);
    // A parameter sent as null is one yoga ignores.
    expect(jsonPostParams(post({ query: "{ a }", other: null }), ENDPOINT)).not.toBeNull();
    for (const accept of [undefined, "*/*", "application/json"]) {
      expect(jsonPostParams(post({ query: "{ a }" }, { accept }), ENDPOINT), String(accept)).not.toBeNull();
    }
    expect(
      jsonPostParams(
        post({ query: "{ a }" }, { "content-type": "application/json; charset=utf-8" }),
        ENDPOINT,
      ),
    ).not.toBeNull();
  });

  it("leaves to yoga whatever yoga words itself: wrong types, extra parameters, batches, bodies that are not objects", () => {
    for (const body of [
      { query: 1 },
      { query: null },
      {},
      { query: "{ a }", variables: [1] },
      { query: "{ a }", variables: "x" },
      { query: "{ a }", extensions: 2 },
      { query: "{ a }", operationName: 5 },
      { query: "{ a }", operationName: {} },
      { query: "{ a }", unexpected: true },
      [{ query: "{ a }" }],
      [],
      "{ a }",
      null,
      42,
    ]) {
      expect(jsonPostParams(post(body), ENDPOINT), JSON.stringify(body)).toBeNull();
    }
  });

  it("leaves to yoga another method, path, query string, content type or Accept", () => {
    const body = { query: "{ a }" };
    expect(jsonPostParams({ ...post(body), method: "GET" }, ENDPOINT)).toBeNull();
    expect(jsonPostParams(post(body, {}, `${ENDPOINT}?via=yoga`), ENDPOINT)).toBeNull();
    expect(jsonPostParams(post(body, {}, "/graphql"), ENDPOINT)).toBeNull();
    for (const contentType of [
      undefined,
      "text/plain",
      "Application/JSON",
      "application/graphql+json",
      "application/jsonx",
    ]) {
      expect(
        jsonPostParams(post(body, { "content-type": contentType }), ENDPOINT),
        String(contentType),
      ).toBeNull();
    }
    for (const accept of [
      "application/graphql-response+json",
      "text/event-stream",
      "multipart/mixed",
      "application/json, */*",
    ]) {
      expect(jsonPostParams(post(body, { accept }), ENDPOINT), accept).toBeNull();
    }
  });
});
