import { FINANCE_PERMISSIONS, financeOperations } from "@hisob/finance";
import { type AnyOperation, isAppError, listOperations, type TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/test-app";

/*
 * Every catalog operation's declared access is what its service enforces: without any one of the
 * permissions it requires (and its `own` variant) the call is FORBIDDEN, and with exactly what it
 * declares it never is. The README's tables and the OpenAPI summaries are written from these
 * declarations, so this keeps the documents true.
 */

const PLACEHOLDER = "01900000-0000-7000-8000-000000000000";
/** An input that gets past no validation but names every id an operation may read. */
const inputFor = (operation: AnyOperation) =>
  operation.http.path.includes(":")
    ? { id: PLACEHOLDER, accountId: PLACEHOLDER, settlementId: PLACEHOLDER, data: {}, query: {} }
    : {};

let t: TestApp;
let tenantId: string;
const ctxWith = (permissions: Iterable<string>): TenantContext => ({
  tenantId,
  actor: { userId: PLACEHOLDER, permissions: new Set(permissions) },
  locale: "en",
  requestId: "access-sweep",
});

/** The code the call fails with, or "ok". */
const outcome = async (operation: AnyOperation, ctx: TenantContext): Promise<string> => {
  try {
    await operation.call(t.services.finance, ctx, inputFor(operation));
    return "ok";
  } catch (error) {
    if (isAppError(error)) return error.code;
    throw error;
  }
};

beforeAll(async () => {
  t = await createTestApp();
  tenantId = (await t.createTenant()).id;
});

afterAll(async () => {
  await t?.close();
});

describe("the finance catalog's declared access", () => {
  const operations = listOperations(financeOperations);

  it("covers every finance route of the OpenAPI document", async () => {
    const spec = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json() as {
      paths: Record<string, object>;
    };
    const routes = Object.entries(spec.paths)
      .filter(([path]) => path.startsWith("/finance/"))
      .flatMap(([, item]) => Object.keys(item));
    expect(operations.length).toBe(routes.length);
  });

  it("is required: without any one declared permission the service refuses", async () => {
    const wrong: string[] = [];
    for (const { id, operation } of operations) {
      const { requires, own, oneOf } = operation.access;
      for (const permission of requires) {
        const without = new Set<string>(FINANCE_PERMISSIONS);
        without.delete(permission);
        if (own && permission === requires[0]) without.delete(own.permission);
        const code = await outcome(operation, ctxWith(without));
        if (code !== "FORBIDDEN") wrong.push(`${id} without ${permission}: ${code}`);
      }
      // The record decides which of `oneOf` is needed: without all of them, never allowed.
      if (oneOf) {
        const without = new Set<string>(FINANCE_PERMISSIONS);
        for (const { permission } of oneOf) without.delete(permission);
        const code = await outcome(operation, ctxWith(without));
        if (code === "ok") wrong.push(`${id} without any of oneOf: ok`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("is enough: holding exactly what is declared, no call is forbidden", async () => {
    const wrong: string[] = [];
    for (const { id, operation } of operations) {
      const { requires, own, oneOf } = operation.access;
      const declared = [...requires, ...(oneOf ?? []).map(({ permission }) => permission)];
      const code = await outcome(operation, ctxWith(declared));
      if (code === "FORBIDDEN") wrong.push(`${id} with ${declared.join(", ")}: FORBIDDEN`);
      if (own && requires[0]) {
        const ownOnly = [own.permission, ...requires.slice(1)];
        const ownCode = await outcome(operation, ctxWith(ownOnly));
        if (ownCode === "FORBIDDEN") wrong.push(`${id} with ${ownOnly.join(", ")}: FORBIDDEN`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
