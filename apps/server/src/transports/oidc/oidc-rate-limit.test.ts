import { createHash } from "node:crypto";
import fastifyFormbody from "@fastify/formbody";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { createMemoryWindowCounter } from "../shared/window-counters";
import { type RateLimitBucket, rateLimitKey } from "./oidc-rate-limit";

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
const basic = (raw: string) => `Basic ${Buffer.from(raw).toString("base64")}`;

/** The key a request gets, read through a real Fastify request (headers, parsed form, ip). */
const keyOf = async (
  bucket: RateLimitBucket,
  request: { headers?: Record<string, string>; form?: string; ip?: string },
) => {
  const app = Fastify({ logger: false });
  await app.register(fastifyFormbody);
  app.post("/", async (req) => ({ key: rateLimitKey(bucket, req) }));
  const res = await app.inject({
    method: "POST",
    url: "/",
    remoteAddress: request.ip ?? "192.0.2.1",
    headers: { "content-type": "application/x-www-form-urlencoded", ...request.headers },
    payload: request.form ?? "",
  });
  await app.close();
  return (res.json() as { key: string }).key;
};

describe("rate-limit keys", () => {
  it("token: a client presenting a secret counts per client (Basic, form-urlencoded per RFC 6749 §2.3.1)", async () => {
    expect(await keyOf("token", { form: "client_id=rp&client_secret=s" })).toBe("token:client:rp");
    expect(await keyOf("token", { headers: { authorization: basic("rp:s") } })).toBe("token:client:rp");
    expect(await keyOf("token", { headers: { authorization: basic("a%3Ab+c:s%20") } })).toBe(
      `token:client:${encodeURIComponent("a:b c")}`,
    );
  });

  it("token: a client presenting no secret is public and counts per client and IP", async () => {
    expect(await keyOf("token", { form: "client_id=hisob-desktop", ip: "198.51.100.7" })).toBe(
      "token:client:hisob-desktop:ip:198.51.100.7",
    );
    expect(await keyOf("token", { headers: { authorization: basic("hisob-desktop:") } })).toBe(
      "token:client:hisob-desktop:ip:192.0.2.1",
    );
    expect(await keyOf("token", { form: "client_id=hisob-desktop&client_secret=" })).toBe(
      "token:client:hisob-desktop:ip:192.0.2.1",
    );
  });

  it("token: no usable client_id counts per IP", async () => {
    expect(await keyOf("token", { form: "grant_type=refresh_token" })).toBe("token:ip:192.0.2.1");
    expect(await keyOf("token", { form: `client_id=${"x".repeat(101)}&client_secret=s` })).toBe(
      "token:ip:192.0.2.1",
    );
    expect(await keyOf("token", { headers: { authorization: "Basic !!!" } })).toBe("token:ip:192.0.2.1");
  });

  it("userinfo: the SHA-256 of the bearer token, else per IP", async () => {
    expect(await keyOf("userinfo", { headers: { authorization: "Bearer abc.def" } })).toBe(
      `userinfo:token:${sha256("abc.def")}`,
    );
    expect(await keyOf("userinfo", { headers: { authorization: "bearer abc.def" } })).toBe(
      `userinfo:token:${sha256("abc.def")}`,
    );
    expect(await keyOf("userinfo", { form: "access_token=xyz" })).toBe(`userinfo:token:${sha256("xyz")}`);
    expect(await keyOf("userinfo", {})).toBe("userinfo:ip:192.0.2.1");
  });

  it("authorize and keys: the IP, IPv6 by its /64", async () => {
    expect(await keyOf("authorize", { ip: "203.0.113.9" })).toBe("authorize:ip:203.0.113.9");
    expect(await keyOf("keys", { ip: "2001:db8:1:2:aaaa::1" })).toBe("keys:ip:2001:db8:1:2::/64");
    expect(await keyOf("keys", { ip: "::ffff:203.0.113.9" })).toBe("keys:ip:203.0.113.9");
  });
});

describe("the in-memory window counter", () => {
  const T0 = Date.parse("2026-01-01T00:00:00.000Z");

  it("counts within a window that opens at the whole second and ends windowMs later", async () => {
    const counter = createMemoryWindowCounter();
    expect(await counter.hit("k", 60_000, T0 + 400)).toEqual({ count: 1, windowEndsAt: T0 + 60_000 });
    expect(await counter.hit("k", 60_000, T0 + 59_999)).toEqual({ count: 2, windowEndsAt: T0 + 60_000 });
    expect(await counter.hit("k", 60_000, T0 + 60_000)).toEqual({ count: 1, windowEndsAt: T0 + 120_000 });
    expect(await counter.hit("other", 60_000, T0 + 60_000)).toEqual({ count: 1, windowEndsAt: T0 + 120_000 });
  });

  it("stays bounded, dropping the least recently used key", async () => {
    const counter = createMemoryWindowCounter(2);
    await counter.hit("a", 60_000, T0);
    await counter.hit("b", 60_000, T0);
    await counter.hit("a", 60_000, T0); // a is now the most recent
    await counter.hit("c", 60_000, T0); // drops b
    expect((await counter.hit("a", 60_000, T0)).count).toBe(3);
    expect((await counter.hit("b", 60_000, T0)).count).toBe(1);
  });
});
