import { readFileSync, writeFileSync } from "node:fs";
import { appRouter } from "@hisob/trpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestApp, type TestApp } from "../testing/test-app";

/*
 * The wire contract, frozen: the OpenAPI document and every tRPC procedure's kind, input and output
 * schemas must stay as recorded in the fixtures beside this file. Only OpenAPI summaries (prose) may
 * change. When a change to the contract is intended (a new route or procedure), regenerate with
 * `UPDATE_API_FIXTURES=1 npx vitest run apps/server/src/contract` and review the fixture's diff.
 */

const OPENAPI_FIXTURE = new URL("./openapi.fixture.json", import.meta.url);
const TRPC_FIXTURE = new URL("./trpc-procedures.fixture.json", import.meta.url);
const update = process.env.UPDATE_API_FIXTURES === "1";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The document without operation summaries, and the summaries by "METHOD path". */
const splitSummaries = (spec: { paths: Record<string, Record<string, { summary?: string }>> }) => {
  const summaries: Record<string, string | undefined> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, item] of Object.entries(spec.paths)) {
    paths[path] = {};
    for (const [method, operation] of Object.entries(item)) {
      const { summary, ...rest } = operation;
      summaries[`${method.toUpperCase()} ${path}`] = summary;
      (paths[path] as Record<string, unknown>)[method] = rest;
    }
  }
  return { document: { ...spec, paths }, summaries };
};

const schemaOf = (parser: unknown, io: "input" | "output"): Json =>
  parser instanceof z.ZodType
    ? (z.toJSONSchema(parser, { io, unrepresentable: "any", reused: "inline" }) as Json)
    : null;

/** Every procedure: its kind and the JSON Schema of what it takes and returns. */
const trpcContract = () => {
  const procedures = (appRouter as unknown as { _def: { procedures: Record<string, ProcedureDef> } })._def
    .procedures;
  type ProcedureDef = { _def: { type: string; inputs: unknown[]; output?: unknown } };
  return Object.fromEntries(
    Object.entries(procedures)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([path, procedure]) => [
        path,
        {
          type: procedure._def.type,
          inputs: procedure._def.inputs.map((input) => schemaOf(input, "input")),
          output: schemaOf(procedure._def.output, "output"),
        },
      ]),
  );
};

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe("the wire contract", () => {
  it("the OpenAPI document is the recorded one, summaries aside", async () => {
    const spec = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json();
    if (update) writeFileSync(OPENAPI_FIXTURE, `${JSON.stringify(spec, null, 2)}\n`);
    const recorded = JSON.parse(readFileSync(OPENAPI_FIXTURE, "utf8"));
    const now = splitSummaries(spec);
    const before = splitSummaries(recorded);
    expect(now.document).toEqual(before.document);
    // Every operation keeps a summary (its wording may change).
    expect(Object.keys(now.summaries).sort()).toEqual(Object.keys(before.summaries).sort());
    for (const [operation, summary] of Object.entries(now.summaries)) {
      if (!operation.includes(" /docs")) expect(summary, operation).toBeTruthy();
    }
  });

  it("every tRPC procedure keeps its kind, input and output", () => {
    const contract = trpcContract();
    if (update) writeFileSync(TRPC_FIXTURE, `${JSON.stringify(contract, null, 2)}\n`);
    expect(contract).toEqual(JSON.parse(readFileSync(TRPC_FIXTURE, "utf8")));
  });
});
