import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { connectPostgres, testAdminUrl, testDatabaseKind } from "@hisob/db/testing";
import type { AppRouter } from "@hisob/trpc";
import { createTRPCClient, httpLink } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { listen } from "../graphql/graphql-test-kit";

/*
 * The organization's settings (docs/decisions/0086-setup-idempotent-creates-sign-out-reasons.md): its
 * base currency and the first-run setup's progress, kept on the server so any browser of any of its
 * users resumes the setup where it was left. Against the real database (PGlite).
 */

let t: TestApp;
let tenantId: string;
let admin: SeededUser;
let trpcUrl: string;

const send = (who: SeededUser, method: "GET" | "PUT", payload?: unknown) =>
  t.app.inject({
    method,
    url: "/tenant/settings",
    headers: who.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

beforeAll(async () => {
  t = await createTestApp();
  trpcUrl = `http://127.0.0.1:${(await listen(t)).port}/trpc`;
  tenantId = (await t.createTenant("Settings")).id;
  admin = await t.createUser(tenantId, "admin");
  const picked = await t.app.inject({
    method: "PUT",
    url: "/tenant/currencies",
    headers: admin.headers,
    payload: { codes: ["UZS", "USD"] },
  });
  expect(picked.statusCode, picked.body).toBe(200);
});

afterAll(async () => {
  await t?.close();
});

describe("tenant settings over REST", () => {
  it("a new organization has no base currency and a setup never started", async () => {
    const res = await send(admin, "GET");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ baseCurrency: null, setup: { step: null, finished: false } });
  });

  it("stores the base currency and the setup's step; what is left out stays; another user reads the same", async () => {
    const set = await send(admin, "PUT", { baseCurrency: "USD", setup: { step: 1 } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ baseCurrency: "USD", setup: { step: 1, finished: false } });
    const step = await send(admin, "PUT", { setup: { step: 2 } });
    expect(step.json()).toEqual({ baseCurrency: "USD", setup: { step: 2, finished: false } });
    // Another user of the organization (another browser, another computer) sees the same.
    const clerk = await t.createUser(tenantId, ["accounts:read:all"]);
    expect((await send(clerk, "GET")).json()).toEqual({
      baseCurrency: "USD",
      setup: { step: 2, finished: false },
    });
    // ...but may not change them.
    const refused = await send(clerk, "PUT", { setup: { finished: true } });
    expect(refused.statusCode).toBe(403);
    const rows = await t.db.withTenant(tenantId, (tx) => tx.tenantSetting.findMany());
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ baseCurrencyCode: "USD", setupStep: 2, setupFinished: false });
    const audited = await t.db.withTenant(tenantId, (tx) =>
      tx.auditEntry.count({ where: { entity: "tenant_settings", action: "update" } }),
    );
    expect(audited).toBe(2);
  });

  it("refuses a base currency that is malformed, unknown or not the organization's: 400 naming the field, in the user's language", async () => {
    const malformed = await send(admin, "PUT", { baseCurrency: "usd" });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.reason).toBe("validation.invalid");
    const unknown = await send(admin, "PUT", { baseCurrency: "XYZ" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.reason).toBe("currency.unknown");
    const notOurs = await send(admin, "PUT", { baseCurrency: "EUR" });
    expect(notOurs.statusCode).toBe(400);
    expect(notOurs.json().error.reason).toBe("currency.base_not_selected");
    expect(notOurs.json().error.issues ?? notOurs.json().error.params?.issues).toBeDefined();
    const stepTooFar = await send(admin, "PUT", { setup: { step: 5 } });
    expect(stepTooFar.statusCode).toBe(400);
    const extra = await send(admin, "PUT", { theme: "dark" });
    expect(extra.statusCode).toBe(400);
    // The user's language: Russian.
    const russian = await t.app.inject({
      method: "PUT",
      url: "/account",
      headers: admin.headers,
      payload: { uiLanguage: "ru" },
    });
    expect(russian.statusCode, russian.body).toBe(200);
    const inRussian = await send(admin, "PUT", { baseCurrency: "EUR" });
    expect(inRussian.json().error.message).toContain("валют");
    await t.app.inject({
      method: "PUT",
      url: "/account",
      headers: admin.headers,
      payload: { uiLanguage: "en" },
    });
    expect((await send(admin, "GET")).json().baseCurrency).toBe("USD");
  });

  it("the base currency cannot leave the organization's currencies (409), another one can", async () => {
    const dropBase = await t.app.inject({
      method: "PUT",
      url: "/tenant/currencies",
      headers: admin.headers,
      payload: { codes: ["UZS"] },
    });
    expect(dropBase.statusCode, dropBase.body).toBe(409);
    expect(dropBase.json().error.reason).toBe("currency.base_in_use");
    const withEur = await t.app.inject({
      method: "PUT",
      url: "/tenant/currencies",
      headers: admin.headers,
      payload: { codes: ["USD", "EUR"] },
    });
    expect(withEur.statusCode, withEur.body).toBe(200);
  });

  it("one organization's settings are its own", async () => {
    const other = (await t.createTenant("Other")).id;
    const theirs = await t.createUser(other, "admin");
    expect((await send(theirs, "GET")).json()).toEqual({
      baseCurrency: null,
      setup: { step: null, finished: false },
    });
    expect((await send(theirs, "PUT", { setup: { finished: true } })).statusCode).toBe(200);
    expect((await send(admin, "GET")).json().setup.finished).toBe(false);
  });
});

describe("tenant settings over tRPC (the accountant app)", () => {
  it("settings.get and settings.update are the same operation", async () => {
    const client = createTRPCClient<AppRouter>({
      links: [httpLink({ url: trpcUrl, headers: admin.headers })],
    });
    const saved = await client.settings.update.mutate({
      baseCurrency: "EUR",
      setup: { step: 3, finished: true },
    });
    expect(saved).toEqual({ baseCurrency: "EUR", setup: { step: 3, finished: true } });
    expect(await client.settings.get.query()).toEqual(saved);
    await expect(client.settings.update.mutate({ baseCurrency: "GBP" })).rejects.toMatchObject({
      data: { httpStatus: 400, reason: "currency.base_not_selected" },
    });
  });
});

describe.skipIf(testDatabaseKind() !== "postgres")(
  "a base currency deselected while it is being chosen (PostgreSQL)",
  () => {
    it("answers 400 currency.base_not_selected, as when it was never selected, not 500", async () => {
      const raceTenant = (await t.createTenant("Settings race")).id;
      const raceAdmin = await t.createUser(raceTenant, "admin");
      const picked = await send(raceAdmin, "GET");
      expect(picked.statusCode).toBe(200);
      const codes = await t.app.inject({
        method: "PUT",
        url: "/tenant/currencies",
        headers: raceAdmin.headers,
        payload: { codes: ["UZS", "USD"] },
      });
      expect(codes.statusCode, codes.body).toBe(200);
      expect((await send(raceAdmin, "PUT", { baseCurrency: "UZS" })).statusCode).toBe(200);
      const [row] = await t.db.withPlatform(
        (tx) => tx.$queryRaw<Array<{ name: string }>>`SELECT current_database() AS name`,
      );
      const url = new URL(testAdminUrl() ?? "");
      url.pathname = `/${row?.name ?? ""}`;
      const other = await connectPostgres(url.toString());
      // Polled from a session of its own: inside a transaction pg_stat_activity keeps its first answer.
      const watcher = await connectPostgres(url.toString());
      try {
        // Another session holds the settings row: the request passes its check that USD is selected,
        // then waits at its write …
        await other.query("BEGIN");
        await other.query("SELECT 1 FROM tenant_settings WHERE tenant_id = $1 FOR UPDATE", [raceTenant]);
        const request = send(raceAdmin, "PUT", { baseCurrency: "USD" });
        const deadline = Date.now() + 20_000;
        let blocked = false;
        for (;;) {
          const waiting = await watcher.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE wait_event_type = 'Lock' AND query LIKE '%tenant_settings%' AND pid <> pg_backend_pid()`,
          );
          blocked = (waiting[0]?.n ?? 0) > 0;
          if (blocked || Date.now() > deadline) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(blocked, "the request should be waiting at its write").toBe(true);
        // … while USD leaves the organization's currencies; the foreign key then refuses the write.
        await other.query("DELETE FROM tenant_currencies WHERE tenant_id = $1 AND currency_code = 'USD'", [
          raceTenant,
        ]);
        await other.query("COMMIT");
        const res = await request;
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().error.reason).toBe("currency.base_not_selected");
        expect((await send(raceAdmin, "GET")).json().baseCurrency).toBe("UZS");
      } finally {
        await other.query("ROLLBACK").catch(() => {});
        await other.close();
        await watcher.close();
      }
    });
  },
);

describe("the base currency once the books hold entries", () => {
  it("another base is refused with 400 currency.base_posted in the user's language; the same base still saves", async () => {
    const booksTenant = (await t.createTenant("Books")).id;
    const booksAdmin = await t.createUser(booksTenant, "admin");
    const picked = await t.app.inject({
      method: "PUT",
      url: "/tenant/currencies",
      headers: booksAdmin.headers,
      payload: { codes: ["UZS", "USD"] },
    });
    expect(picked.statusCode, picked.body).toBe(200);
    expect((await send(booksAdmin, "PUT", { baseCurrency: "UZS" })).statusCode).toBe(200);
    const cash = await t.app.inject({
      method: "POST",
      url: "/finance/accounts",
      headers: booksAdmin.headers,
      payload: { name: "Cash", currency: "UZS" },
    });
    expect(cash.statusCode, cash.body).toBe(201);
    const paid = await t.app.inject({
      method: "POST",
      url: "/finance/payments",
      headers: booksAdmin.headers,
      payload: { accountId: cash.json().id, amount: "1000", date: new Date().toISOString().slice(0, 10) },
    });
    expect(paid.statusCode, paid.body).toBe(201);

    const russian = await t.app.inject({
      method: "PUT",
      url: "/account",
      headers: booksAdmin.headers,
      payload: { uiLanguage: "ru" },
    });
    expect(russian.statusCode, russian.body).toBe(200);
    const refused = await send(booksAdmin, "PUT", { baseCurrency: "USD" });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.reason).toBe("currency.base_posted");
    expect(refused.json().error.message).toContain("главной книге");
    const same = await send(booksAdmin, "PUT", { baseCurrency: "UZS" });
    expect(same.statusCode, same.body).toBe(200);
    expect((await send(booksAdmin, "GET")).json().baseCurrency).toBe("UZS");
  });
});

describe("a setup left before the chart's step came (docs/decisions/0102-chart-of-accounts-screen.md)", () => {
  it("resumes where it was: migration 20261214000000_setup_chart_step moves a saved step ≥ 1 up one", async () => {
    const sql = readFileSync(
      fileURLToPath(
        new URL(
          "../../../../../prisma/migrations/20261214000000_setup_chart_step/migration.sql",
          import.meta.url,
        ),
      ),
      "utf8",
    );
    const other = (await t.createTenant("Old setup")).id;
    const owner = await t.createUser(other, "admin");
    // Old numbering: 0 currencies, 1 accounts, 2 categories, 3 done.
    for (const [saved, resumed] of [
      [0, 0],
      [1, 2],
      [2, 3],
      [3, 4],
    ] as const) {
      expect((await send(owner, "PUT", { setup: { step: saved } })).statusCode).toBe(200);
      await t.db.withTenant(other, (tx) => tx.$executeRawUnsafe(sql));
      expect((await send(owner, "GET")).json().setup.step, `saved ${saved}`).toBe(resumed);
    }
  });
});
