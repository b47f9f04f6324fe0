import { createManualClock } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { createOidcKit, type OidcKit } from "../oidc/oidc-test-kit";
import { codeOf, gql, listen } from "./graphql-test-kit";

/*
 * The Session type says what REST says of a session: when and through what it was last used (decision
 * 0085); `sessions` lists the organization's like GET /sessions, with the same filters and permission.
 */

const clock = createManualClock(new Date("2026-12-04T09:00:00Z"));
let t: TestApp;
let url: string;
let kit: OidcKit;
let admin: SeededUser;
let user: SeededUser;
let outsider: SeededUser;

type Session = {
  token: string;
  userId: string;
  ip: string;
  userAgent: string;
  lastAccessAt: string | null;
  client: { kind: string; clientId: string | null; name: string | null } | null;
};

const SESSIONS = `query($userId: ID, $client: String, $limit: Int) {
  sessions(userId: $userId, client: $client, limit: $limit) {
    total
    data { token userId ip userAgent lastAccessAt client { kind clientId name } }
  }
}`;

beforeAll(async () => {
  t = await createTestApp({ clock });
  ({ httpUrl: url } = await listen(t));
  kit = createOidcKit(t);
  const tenantId = (await t.createTenant("GraphQL sessions")).id;
  admin = await t.createUser(tenantId, "admin");
  user = await t.createUser(tenantId, []);
  outsider = await t.createUser((await t.createTenant()).id, "admin");
});
afterAll(async () => t?.close());

describe("Session fields", () => {
  it("mySessions names the last access and what used the session, as REST does", async () => {
    const res = await gql(url, "{ mySessions { token lastAccessAt client { kind clientId name } } }", {
      headers: user.headers,
    });
    expect(res.body.errors).toBeUndefined();
    const mine = res.body.data?.mySessions as Session[];
    const rest = (
      await t.app.inject({ method: "GET", url: `/users/${user.id}/sessions`, headers: user.headers })
    ).json() as Array<{ id: string; lastAccessAt: string; client: Session["client"] }>;
    expect(mine.map((s) => ({ token: s.token, lastAccessAt: s.lastAccessAt, client: s.client }))).toEqual(
      rest.map((s) => ({ token: s.id, lastAccessAt: s.lastAccessAt, client: s.client })),
    );
  });
});

describe("sessions", () => {
  it("lists the organization's sessions with the OIDC client that used one last, filtered by user and client", async () => {
    const session = await kit.newSession(user);
    const tokens = await kit.tokensFor(kit.desktop, session);
    // The first-party app's token used on our API a minute later (last access is written once a
    // minute at most): the session now says it came through that client.
    clock.advance(61_000);
    const used = await gql(url, "{ me { id } }", {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(used.body.data?.me).toEqual({ id: user.id });

    const all = await gql(url, SESSIONS, { headers: admin.headers, variables: { limit: 100 } });
    expect(all.body.errors).toBeUndefined();
    // Int64 travels as a string.
    const page = all.body.data?.sessions as { total: string; data: Session[] };
    expect(page.total).toBe(String(page.data.length));
    expect(new Set(page.data.map((s) => s.userId))).toEqual(new Set([admin.id, user.id]));

    const byClient = await gql(url, SESSIONS, {
      headers: admin.headers,
      variables: { client: kit.desktop.clientId },
    });
    const through = byClient.body.data?.sessions as { total: string; data: Session[] };
    expect(through.total).toBe("1");
    expect(through.data[0]).toMatchObject({
      userId: user.id,
      lastAccessAt: expect.any(String),
      client: { kind: "oidc", clientId: kit.desktop.clientId, name: expect.any(String) },
    });

    const byUser = await gql(url, SESSIONS, { headers: admin.headers, variables: { userId: admin.id } });
    const admins = byUser.body.data?.sessions as { data: Session[] };
    expect(admins.data.length).toBeGreaterThan(0);
    expect(admins.data.every((s) => s.userId === admin.id && s.client?.kind !== "oidc")).toBe(true);
  });

  it("needs sessions:read:all, hides other organizations, and refuses a malformed filter", async () => {
    expect(codeOf(await gql(url, SESSIONS, { headers: user.headers }))).toBe("FORBIDDEN");
    expect(codeOf(await gql(url, SESSIONS))).toBe("UNAUTHENTICATED");
    const theirs = await gql(url, SESSIONS, { headers: outsider.headers, variables: { userId: user.id } });
    expect(theirs.body.data?.sessions).toEqual({ total: "0", data: [] });
    for (const variables of [{ userId: "nope" }, { client: "not a client!" }, { limit: 1000 }]) {
      expect(
        codeOf(await gql(url, SESSIONS, { headers: admin.headers, variables })),
        JSON.stringify(variables),
      ).toBe("VALIDATION_ERROR");
    }
  });
});
