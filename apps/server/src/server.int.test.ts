import { AppError, validationError } from "@hisob/kernel";
import { Validator } from "@seriousme/openapi-schema-validator";
import Fastify, { type LightMyRequestResponse } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { App } from "./app";
import { loadEnv } from "./env";
import { BODY_LIMIT, buildServer } from "./server";
import { healthRoutes } from "./transports/rest/health";

// The real database layer is not wired in here: readiness only needs something that pings.
const okDb = { ping: async () => {} };
const env = loadEnv({ NODE_ENV: "test" });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Registers the test-only routes the error mapping is exercised through. */
const addTestRoutes = (app: App) => {
  app.get("/test/app-error", async () => {
    throw new AppError("NOT_FOUND", { reason: "payment.not_found", message: "Payment not found" });
  });
  app.get("/test/app-validation-error", async () => {
    throw validationError([{ path: "amount", message: "must be positive" }]);
  });
  app.get("/test/app-internal-error", async () => {
    throw new AppError("INTERNAL", { message: "ledger out of balance by 12.00 in tenant 42" });
  });
  app.get("/test/plain-error", async () => {
    throw new Error("connect ECONNREFUSED postgres://app:hunter2@db:5432");
  });
  app.get("/test/odd-code", async () => {
    throw Object.assign(new Error("odd"), { code: "constructor" });
  });
  app.get("/test/plugin-4xx", async () => {
    throw Object.assign(new Error("Rate limit exceeded, retry in 1 minute"), { statusCode: 429 });
  });
  app.get(
    "/test/bad-response",
    { schema: { response: { 200: z.object({ id: z.uuid() }) } } },
    // Deliberately wrong at runtime; the cast stands in for a buggy service.
    async () => ({ id: "not-a-uuid", secret: "x" }) as unknown as { id: string },
  );
  app.get(
    "/test/search",
    {
      schema: {
        querystring: z.object({
          name: z.string(),
          limit: z.coerce.number().int().min(1).max(100).default(20),
        }),
        response: { 200: z.object({ name: z.string(), limit: z.number() }) },
      },
    },
    async (request) => request.query,
  );
  app.post(
    "/test/echo",
    {
      schema: {
        body: z.object({ name: z.string(), address: z.object({ city: z.string() }).optional() }),
        response: { 200: z.object({ name: z.string() }) },
      },
    },
    async (request) => ({ name: request.body.name }),
  );
  app.get(
    "/test/declared-404",
    // A route documenting its own 404 shape must not reshape (or break) the envelope.
    { schema: { response: { 200: z.object({ ok: z.boolean() }), 404: z.object({ missing: z.string() }) } } },
    async () => {
      throw new AppError("NOT_FOUND");
    },
  );
  app.get("/test/ip", async (request) => ({ ip: request.ip }));
};

type Envelope = {
  error: {
    code: string;
    reason: string;
    message: string;
    requestId: string;
    issues?: { path: string; message: string }[];
  };
};

/** Asserts the response is our error envelope, consistent with its x-request-id, and leaks no stack. */
const expectEnvelope = (response: LightMyRequestResponse, status: number, code: string, reason: string) => {
  expect(response.statusCode).toBe(status);
  expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
  const body = response.json<Envelope>();
  expect(body.error).toMatchObject({ code, reason, requestId: response.headers["x-request-id"] });
  expect(Object.keys(body)).toEqual(["error"]);
  expect(response.body).not.toMatch(/\bat .+:\d+:\d+|\.ts:\d+|node_modules|stack/);
  return body.error;
};

describe("server", () => {
  let app: App;

  beforeAll(async () => {
    app = await buildServer({ env, db: okDb });
    addTestRoutes(app);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  describe("health", () => {
    it("GET /healthz is 200 ok", async () => {
      const response = await app.inject({ method: "GET", url: "/healthz" });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: "ok" });
      expect(response.headers["cache-control"]).toBe("no-store");
    });

    it("GET /readyz is 200 when the database pings", async () => {
      const response = await app.inject({ method: "GET", url: "/readyz" });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: "ready", checks: { database: "ok" } });
    });

    it.each([
      [
        "rejects",
        { ping: async () => Promise.reject(new Error("password authentication failed for user app")) },
      ],
      [
        "throws synchronously",
        {
          ping: (): Promise<void> => {
            throw new Error("pool destroyed");
          },
        },
      ],
    ])("GET /readyz is 503 (not the error envelope) when the ping %s", async (_label, db) => {
      const failing = await buildServer({ env, db });
      try {
        const response = await failing.inject({ method: "GET", url: "/readyz" });
        expect(response.statusCode).toBe(503);
        expect(response.json()).toEqual({ status: "unavailable", checks: { database: "error" } });
        expect(response.body).not.toContain("password");
      } finally {
        await failing.close();
      }
    });

    it("GET /readyz is 503 timeout when the ping hangs", async () => {
      const bare = Fastify().withTypeProvider<ZodTypeProvider>();
      bare.setValidatorCompiler(validatorCompiler);
      bare.setSerializerCompiler(serializerCompiler);
      await bare.register(healthRoutes, {
        db: { ping: () => new Promise<void>(() => {}) },
        readinessTimeoutMs: 5,
      });
      try {
        const response = await bare.inject({ method: "GET", url: "/readyz" });
        expect(response.statusCode).toBe(503);
        expect(response.json()).toEqual({ status: "unavailable", checks: { database: "timeout" } });
      } finally {
        await bare.close();
      }
    });
  });

  describe("OpenAPI and docs", () => {
    it("GET /openapi.json is a valid OpenAPI 3.1 document listing the health routes", async () => {
      const response = await app.inject({ method: "GET", url: "/openapi.json" });
      expect(response.statusCode).toBe(200);
      const spec = response.json();

      const result = await new Validator().validate(spec);
      expect(result.errors).toBeUndefined();
      expect(result.valid).toBe(true);
      expect(spec.openapi).toMatch(/^3\.1\./);
      expect(spec.info).toMatchObject({
        title: "Hisob API",
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      });

      expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(["/healthz", "/readyz"]));
      expect(spec.paths["/healthz"].get.tags).toEqual(["health"]);
      expect(Object.keys(spec.paths["/readyz"].get.responses)).toEqual(["200", "503"]);
      expect(spec.paths["/readyz"].get.responses["200"].content["application/json"].schema).toMatchObject({
        type: "object",
        required: ["status", "checks"],
      });
      // zod schemas are documented by construction, request parts included.
      expect(spec.paths["/test/search"].get.parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ in: "query", name: "name", required: true })]),
      );
      // Plumbing stays out of the document.
      for (const path of Object.keys(spec.paths)) expect(path).not.toMatch(/^\/(docs|openapi\.json)/);
    });

    it("GET /docs serves the Swagger UI from local assets", async () => {
      let url = "/docs";
      let response = await app.inject({ method: "GET", url });
      for (let hops = 0; response.statusCode >= 300 && response.statusCode < 400 && hops < 5; hops += 1) {
        url = new URL(String(response.headers.location), `http://localhost${url}`).pathname;
        response = await app.inject({ method: "GET", url });
      }
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^text\/html/);
      expect(response.body).toContain('id="swagger-ui"');
      const csp = String(response.headers["content-security-policy"]);
      expect(csp).toContain("default-src 'self'");
      expect(csp).not.toContain("upgrade-insecure-requests");
      // Offline: nothing is fetched from another host.
      expect(response.body).not.toMatch(/(src|href)="(https?:)?\/\//);

      const assets = [...response.body.matchAll(/(?:src|href)="([^"]+)"/g)].map(
        (match) => new URL(match[1] ?? "", `http://localhost${url}`).pathname,
      );
      expect(assets.some((asset) => asset.endsWith(".js"))).toBe(true);
      expect(assets.some((asset) => asset.endsWith(".css"))).toBe(true);
      for (const asset of assets) {
        const assetResponse = await app.inject({ method: "GET", url: asset });
        expect(assetResponse.statusCode, asset).toBe(200);
        expect(assetResponse.rawPayload.length, asset).toBeGreaterThan(0);
        const type = String(assetResponse.headers["content-type"]);
        if (asset.endsWith(".js")) expect(type).toMatch(/javascript/);
        if (asset.endsWith(".css")) expect(type).toMatch(/^text\/css/);
      }

      // The initializer points the UI at the spec next to it; that must resolve too.
      const spec = await app.inject({ method: "GET", url: "/docs/json" });
      expect(spec.statusCode).toBe(200);
      expect(spec.json().info.title).toBe("Hisob API");
    });
  });

  describe("request ids", () => {
    it("echoes a well-formed x-request-id, in the header and the error envelope", async () => {
      const id = "edge-7f3a.b_9-XYZ";
      const ok = await app.inject({ method: "GET", url: "/healthz", headers: { "x-request-id": id } });
      expect(ok.headers["x-request-id"]).toBe(id);

      const failed = await app.inject({ method: "GET", url: "/nowhere", headers: { "x-request-id": id } });
      expect(failed.headers["x-request-id"]).toBe(id);
      expect(failed.json<Envelope>().error.requestId).toBe(id);
    });

    it("generates a UUID when there is none", async () => {
      const response = await app.inject({ method: "GET", url: "/healthz" });
      expect(response.headers["x-request-id"]).toMatch(UUID);
    });

    it.each([
      ["too long", "a".repeat(129)],
      ["spaces", "abc def"],
      ["markup", "<script>alert(1)</script>"],
      ["log injection", 'x","level":60,"msg":"forged'],
      ["non-ASCII", "идентификатор"],
      ["separators", "a;b,c"],
    ])("replaces a hostile id (%s) with a UUID", async (_label, hostile) => {
      const response = await app.inject({
        method: "GET",
        url: "/healthz",
        headers: { "x-request-id": Buffer.from(hostile).toString("latin1") },
      });
      expect(response.headers["x-request-id"]).toMatch(UUID);
    });

    it("accepts exactly 128 characters", async () => {
      const id = "a".repeat(128);
      const response = await app.inject({ method: "GET", url: "/healthz", headers: { "x-request-id": id } });
      expect(response.headers["x-request-id"]).toBe(id);
    });
  });

  describe("error envelope", () => {
    it("unknown route is 404 NOT_FOUND route.not_found", async () => {
      const response = await app.inject({ method: "GET", url: "/no/such/route" });
      expectEnvelope(response, 404, "NOT_FOUND", "route.not_found");
    });

    it("unknown method on a known path is 404 too", async () => {
      const response = await app.inject({ method: "DELETE", url: "/healthz" });
      expectEnvelope(response, 404, "NOT_FOUND", "route.not_found");
    });

    it("a malformed URL is 400 VALIDATION_ERROR", async () => {
      const response = await app.inject({ method: "GET", url: "/%E0%A4%A" });
      expectEnvelope(response, 400, "VALIDATION_ERROR", "request.bad_url");
    });

    it("malformed JSON is 400 VALIDATION_ERROR", async () => {
      const response = await app.inject({
        method: "POST",
        url: "/test/echo",
        headers: { "content-type": "application/json" },
        payload: '{"name": "a",',
      });
      const error = expectEnvelope(response, 400, "VALIDATION_ERROR", "request.invalid_json");
      expect(error.message).toBe("validation error: request body is not valid JSON");
    });

    it("an empty JSON body is 400 VALIDATION_ERROR", async () => {
      const response = await app.inject({
        method: "POST",
        url: "/test/echo",
        headers: { "content-type": "application/json" },
        payload: "",
      });
      expectEnvelope(response, 400, "VALIDATION_ERROR", "request.empty_body");
    });

    it("prototype poisoning is rejected as malformed JSON", async () => {
      const response = await app.inject({
        method: "POST",
        url: "/test/echo",
        headers: { "content-type": "application/json" },
        payload: '{"name":"a","__proto__":{"isAdmin":true}}',
      });
      expectEnvelope(response, 400, "VALIDATION_ERROR", "request.invalid_json");
    });

    it("an unsupported content type is 415 VALIDATION_ERROR", async () => {
      const response = await app.inject({
        method: "POST",
        url: "/test/echo",
        headers: { "content-type": "application/xml" },
        payload: "<name>a</name>",
      });
      const error = expectEnvelope(response, 415, "VALIDATION_ERROR", "request.unsupported_media_type");
      expect(error.message).not.toContain("xml");
    });

    it("a body over 1 MiB is 413 VALIDATION_ERROR request.too_large", async () => {
      const response = await app.inject({
        method: "POST",
        url: "/test/echo",
        headers: { "content-type": "application/json" },
        payload: JSON.stringify({ name: "x".repeat(BODY_LIMIT) }),
      });
      expectEnvelope(response, 413, "VALIDATION_ERROR", "request.too_large");
    });

    it("a body just under the limit is accepted", async () => {
      const payload = JSON.stringify({ name: "x".repeat(BODY_LIMIT - 100) });
      const response = await app.inject({
        method: "POST",
        url: "/test/echo",
        headers: { "content-type": "application/json" },
        payload,
      });
      expect(response.statusCode).toBe(200);
    });

    it("a missing query field gets the field-level message", async () => {
      const response = await app.inject({ method: "GET", url: "/test/search" });
      const error = expectEnvelope(response, 400, "VALIDATION_ERROR", "validation.invalid");
      expect(error.message).toBe("validation error: name is required");
      expect(error.issues).toEqual([{ path: "name", message: "is required" }]);
    });

    it("an invalid query field is reported by path", async () => {
      const response = await app.inject({ method: "GET", url: "/test/search?name=a&limit=0" });
      const error = expectEnvelope(response, 400, "VALIDATION_ERROR", "validation.invalid");
      expect(error.issues).toEqual([{ path: "limit", message: "must be at least 1" }]);
    });

    it("a valid query passes through with defaults applied", async () => {
      const response = await app.inject({ method: "GET", url: "/test/search?name=a" });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ name: "a", limit: 20 });
    });

    it("nested and missing body fields are listed with dotted paths", async () => {
      const response = await app.inject({ method: "POST", url: "/test/echo", payload: { address: {} } });
      const error = expectEnvelope(response, 400, "VALIDATION_ERROR", "validation.invalid");
      expect(error.message).toBe("validation error: name is required");
      expect(error.issues).toEqual([
        { path: "name", message: "is required" },
        { path: "address.city", message: "is required" },
      ]);
    });

    it("a missing body is 'body is required'", async () => {
      const response = await app.inject({ method: "POST", url: "/test/echo" });
      const error = expectEnvelope(response, 400, "VALIDATION_ERROR", "validation.invalid");
      expect(error.message).toBe("validation error: body is required");
    });

    it("AppError keeps its code, reason, message and status", async () => {
      const response = await app.inject({ method: "GET", url: "/test/app-error" });
      const error = expectEnvelope(response, 404, "NOT_FOUND", "payment.not_found");
      expect(error.message).toBe("Payment not found");
    });

    it("a VALIDATION_ERROR AppError carries its issues", async () => {
      const response = await app.inject({ method: "GET", url: "/test/app-validation-error" });
      const error = expectEnvelope(response, 400, "VALIDATION_ERROR", "validation.invalid");
      expect(error.message).toBe("validation error: amount must be positive");
      expect(error.issues).toEqual([{ path: "amount", message: "must be positive" }]);
    });

    it("an INTERNAL AppError is masked", async () => {
      const response = await app.inject({ method: "GET", url: "/test/app-internal-error" });
      const error = expectEnvelope(response, 500, "INTERNAL", "internal");
      expect(error.message).toBe("Internal server error");
    });

    it("a plain Error is 500 INTERNAL with a masked message", async () => {
      const response = await app.inject({ method: "GET", url: "/test/plain-error" });
      const error = expectEnvelope(response, 500, "INTERNAL", "internal");
      expect(error.message).toBe("Internal server error");
      expect(response.body).not.toContain("hunter2");
    });

    it("an error code that names an Object.prototype member is still a plain 500", async () => {
      const response = await app.inject({ method: "GET", url: "/test/odd-code" });
      expectEnvelope(response, 500, "INTERNAL", "internal");
    });

    it("a plugin's 4xx error maps to the closest code", async () => {
      const response = await app.inject({ method: "GET", url: "/test/plugin-4xx" });
      const error = expectEnvelope(response, 429, "RATE_LIMITED", "rate_limited");
      expect(error.message).toBe("Rate limit exceeded, retry in 1 minute");
    });

    it("a route's own error schema does not touch the envelope", async () => {
      const response = await app.inject({ method: "GET", url: "/test/declared-404" });
      expectEnvelope(response, 404, "NOT_FOUND", "not_found");
    });

    it("a response that violates its schema is a masked 500", async () => {
      const response = await app.inject({ method: "GET", url: "/test/bad-response" });
      const error = expectEnvelope(response, 500, "INTERNAL", "internal");
      expect(error.message).toBe("Internal server error");
      expect(response.body).not.toContain("not-a-uuid");
    });
  });
});

describe("server logging", () => {
  it("writes JSON logs with the request id, and logs the real error behind a masked 500", async () => {
    const lines: string[] = [];
    const app = await buildServer({
      env,
      db: okDb,
      logger: { level: "info", stream: { write: (line: string) => void lines.push(line) } },
    });
    addTestRoutes(app);
    await app.ready();
    try {
      const response = await app.inject({
        method: "GET",
        url: "/test/plain-error",
        headers: { "x-request-id": "trace-500" },
      });
      expect(response.statusCode).toBe(500);

      const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const failure = records.find((record) => record.msg === "request failed");
      expect(failure).toMatchObject({
        level: 50,
        requestId: "trace-500",
        err: { message: expect.stringContaining("ECONNREFUSED"), stack: expect.stringContaining("Error:") },
      });
      expect(records.filter((record) => record.requestId === "trace-500").length).toBeGreaterThanOrEqual(2);
    } finally {
      await app.close();
    }
  });
});

describe("proxy trust", () => {
  const forwarded = { "x-forwarded-for": "203.0.113.7" };

  it("ignores X-Forwarded-For by default", async () => {
    const app = await buildServer({ env, db: okDb });
    addTestRoutes(app);
    try {
      const response = await app.inject({ method: "GET", url: "/test/ip", headers: forwarded });
      expect(response.json()).toEqual({ ip: "127.0.0.1" });
    } finally {
      await app.close();
    }
  });

  it("honours it with TRUST_PROXY=true", async () => {
    const app = await buildServer({ env: loadEnv({ NODE_ENV: "test", TRUST_PROXY: "true" }), db: okDb });
    addTestRoutes(app);
    try {
      const response = await app.inject({ method: "GET", url: "/test/ip", headers: forwarded });
      expect(response.json()).toEqual({ ip: "203.0.113.7" });
    } finally {
      await app.close();
    }
  });

  // nginx's `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for` appends the address it saw to
  // whatever the client sent: only the right-most entries are the proxies' word.
  const ipSeen = async (trust: string, xff: string, remoteAddress = "127.0.0.1") => {
    const app = await buildServer({ env: loadEnv({ NODE_ENV: "test", TRUST_PROXY: trust }), db: okDb });
    addTestRoutes(app);
    try {
      const response = await app.inject({
        method: "GET",
        url: "/test/ip",
        headers: { "x-forwarded-for": xff },
        remoteAddress,
      });
      return (response.json() as { ip: string }).ip;
    } finally {
      await app.close();
    }
  };

  it.each([
    ["true", "6.6.6.6, 203.0.113.7", "127.0.0.1", "203.0.113.7"],
    ["1", "6.6.6.6, 7.7.7.7, 203.0.113.7", "127.0.0.1", "203.0.113.7"],
    ["2", "6.6.6.6, 203.0.113.7, 10.0.0.5", "127.0.0.1", "203.0.113.7"],
    ["127.0.0.1", "6.6.6.6, 203.0.113.7", "127.0.0.1", "203.0.113.7"],
    ["10.0.0.0/8,127.0.0.1", "6.6.6.6, 203.0.113.7, 10.0.0.5", "127.0.0.1", "203.0.113.7"],
    // A request that does not come from a trusted proxy: its X-Forwarded-For is the client's own word.
    ["10.0.0.0/8", "6.6.6.6", "198.51.100.1", "198.51.100.1"],
    // A value no proxy writes is the client's: the connection's address (or what the last proxy saw) stands.
    ["true", "foo", "198.51.100.1", "198.51.100.1"],
    ["true", "1.2.3.4:80", "198.51.100.1", "198.51.100.1"],
    ["true", "[::1]", "198.51.100.1", "198.51.100.1"],
    ["true", "203.0.113.7, foo", "198.51.100.1", "198.51.100.1"],
    ["2", "6.6.6.6, foo, 203.0.113.7", "127.0.0.1", "203.0.113.7"],
    ["127.0.0.1", "6.6.6.6, bar", "127.0.0.1", "127.0.0.1"],
  ])("TRUST_PROXY=%s, X-Forwarded-For %j from %s: the client is %s, not what it wrote", async (trust, xff, peer, client) => {
    expect(await ipSeen(trust, xff, peer)).toBe(client);
  });

  it("a 2,000-character X-Forwarded-For is not an address: the connection's stands", async () => {
    expect(await ipSeen("true", "x".repeat(2000), "198.51.100.1")).toBe("198.51.100.1");
    expect(await ipSeen("true", `${"1.2.3.4,".repeat(250)}foo`, "198.51.100.1")).toBe("198.51.100.1");
  });
});
