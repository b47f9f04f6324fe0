import { DatabaseSetupError, type Db } from "@hisob/db";
import { createTestDb, startPgBouncer, testDatabaseKind } from "@hisob/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, TODAY, unique } from "./testing/finance-records";
import { createTestApp, TEST_PASSWORD, type TestApp } from "./testing/test-app";
import { gql, listen } from "./transports/graphql/graphql-test-kit";

/*
 * Behind PgBouncer in transaction pooling mode (Debian's 1.18, started here on loopback in front of
 * the tests' PostgreSQL, with three server connections for many client ones): named prepared
 * statements, per-connection startup options and session locks do not survive it, so DATABASE_DIRECT_URL
 * switches them off (docs/decisions/0030-pgbouncer.md). PostgreSQL only.
 */

const onPostgres = testDatabaseKind() === "postgres";

describe.skipIf(!onPostgres)("the server behind PgBouncer (transaction pooling)", () => {
  let bouncer: Awaited<ReturnType<typeof startPgBouncer>>;
  let db: Db;
  let t: TestApp;
  const call = caller(() => t);

  beforeAll(async () => {
    bouncer = await startPgBouncer({ poolSize: 3 });
    db = await createTestDb({ viaPooler: bouncer.via, poolSize: 12 });
    t = await createTestApp({ db });
  });

  afterAll(async () => {
    await t?.close();
    await db?.close();
    await bouncer?.stop();
  });

  it("signs in, posts, reports and answers GraphQL, many at once over three server connections", async () => {
    const tenantId = (await t.createTenant()).id;
    const admin = await t.createUser(tenantId, "admin");
    const login = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      payload: { email: admin.email, password: TEST_PASSWORD },
    });
    expect(login.statusCode, login.body).toBe(200);
    expect((await call(admin, "PUT", "/tenant/currencies", { codes: ["UZS"] })).statusCode).toBe(200);
    const account = await call(admin, "POST", "/finance/accounts", { name: unique("Cash"), currency: "UZS" });
    expect(account.statusCode, account.body).toBe(201);
    const accountId = account.json().id as string;

    // The hot paths prepare statements on PostgreSQL; through the pooler each runs on whichever
    // server connection is free, so 40 postings at once would meet "prepared statement … does not
    // exist" if any were named.
    const postAll = (url: string, amount: string) =>
      Promise.all(
        Array.from({ length: 20 }, () => call(admin, "POST", url, { accountId, amount, date: TODAY })),
      );
    const payments = await postAll("/finance/payments", "300");
    const expenses = await postAll("/finance/expenses", "100"); // after the money is there
    expect([...payments, ...expenses].map((res) => res.statusCode)).toEqual(Array(40).fill(201));
    const balance = (await call(admin, "GET", `/finance/accounts/${accountId}`)).json().balance;
    expect(balance).toBe(String(20 * 300 - 20 * 100));

    const report = await call(
      admin,
      "GET",
      `/finance/reports/income-statement?startDate=${TODAY}&endDate=${TODAY}`,
    );
    expect(report.statusCode, report.body).toBe(200);
    const uzs = report.json().currencies.find((entry: { currency: string }) => entry.currency === "UZS");
    expect(uzs).toMatchObject({ revenue: "6000", expenses: "2000", netIncome: "4000" });

    // Timestamps come back in UTC, as on a direct connection (the pooler's connect_query sets it).
    const { httpUrl } = await listen(t);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        gql(httpUrl, "{ me { email } payments(limit: 1) { total data { createdAt } } }", {
          headers: admin.headers,
        }),
      ),
    );
    for (const answer of answers) {
      expect(answer.body.errors).toBeUndefined();
      expect((answer.body.data as { me?: { email: string } } | undefined)?.me?.email).toBe(admin.email);
    }
  });

  it("refuses to start behind a pooler that leaves sessions in the server's time zone", async () => {
    const bare = await startPgBouncer({ connectQuery: "SET TimeZone = 'Asia/Tashkent'" });
    try {
      const error = await createTestDb({ viaPooler: bare.via }).then(
        async (opened) => {
          await opened.close();
          return null;
        },
        (refused: unknown) => refused,
      );
      expect(error).toBeInstanceOf(DatabaseSetupError);
      expect(String((error as Error).message)).toMatch(/connect_query/);
    } finally {
      await bare.stop();
    }
  });
});
