import { describe, expect, it } from "vitest";
import { parseAuthorization } from "./authorization";

const basic = (text: string) => `Basic ${Buffer.from(text, "utf8").toString("base64")}`;

describe("parseAuthorization", () => {
  it("reads a Bearer token, any case of the scheme, trimmed", () => {
    expect(parseAuthorization("Bearer abc.DEF-_~+/=")).toEqual({ scheme: "bearer", token: "abc.DEF-_~+/=" });
    expect(parseAuthorization("  bearer tok  ")).toEqual({ scheme: "bearer", token: "tok" });
  });

  it("reads Basic client credentials, form-decoding both parts (RFC 6749 §2.3.1)", () => {
    expect(parseAuthorization(basic("my%20app:s3cr%3At+x"))).toEqual({
      scheme: "basic",
      clientId: "my app",
      secret: "s3cr:t x",
    });
    expect(parseAuthorization(basic("public-client:"))).toEqual({
      scheme: "basic",
      clientId: "public-client",
      secret: "",
    });
  });

  it("no header is none; anything else is unusable, never an exception", () => {
    expect(parseAuthorization(undefined)).toEqual({ scheme: "none" });
    for (const header of [
      "",
      "Bearer",
      "Bearer two tokens",
      "Bearer tök",
      "Digest x",
      "Basic !!!",
      basic("no-colon"),
      basic("bad%zz:secret"),
    ]) {
      expect(parseAuthorization(header), header).toEqual({ scheme: "unusable" });
    }
  });
});
