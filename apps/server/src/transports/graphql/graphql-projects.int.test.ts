import type { TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { codeOf, type GraphqlResponse, gql, listen } from "./graphql-test-kit";

/*
 * The Projects module over the real GraphQL endpoint: projects and their ordered stages, with happy
 * paths, errors, security per operation, and stage changes racing on one project (positions stay
 * 0..n-1; run it on PostgreSQL for real concurrency).
 */

let t: TestApp;
let url: string;
let tenantId: string;
let admin: SeededUser;
let reader: SeededUser;
let outsider: SeededUser;
let other: { projectId: string; stageId: string; clientId: string };

const contextOf = async (user: SeededUser) =>
  (await t.services.context.resolveContext({ bearerToken: user.token, requestId: "seed" })) as TenantContext;
const run = (user: SeededUser | null, query: string, variables: Record<string, unknown> = {}) =>
  gql(url, query, { variables, ...(user ? { headers: user.headers } : {}) });
const dataOf = <T>(response: GraphqlResponse, field: string): T => {
  expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
  return response.body.data?.[field] as T;
};
const errorOf = (response: GraphqlResponse) => response.body.errors?.[0];

const PROJECT =
  "id name clientId client { name } budget currency startDate endDate status stages { id name position done dueDate }";
const CREATE = `mutation($input: ProjectInput!) { createProject(input: $input) { ${PROJECT} } }`;
const UPDATE = `mutation($id: ID!, $input: ProjectPatch!) { updateProject(id: $id, input: $input) { ${PROJECT} } }`;
const DELETE = "mutation($id: ID!) { deleteProject(id: $id) }";
const GET = `query($id: ID!) { project(id: $id) { ${PROJECT} } }`;
const LIST =
  "query($filters: [Filter!], $sortBy: [String!]) { projects(filters: $filters, sortBy: $sortBy) { total data { name stages { position } } } }";
const ADD_STAGE =
  "mutation($projectId: ID!, $input: StageInput!) { addStage(projectId: $projectId, input: $input) { id name position } }";
const UPDATE_STAGE =
  "mutation($id: ID!, $input: StagePatch!) { updateStage(id: $id, input: $input) { id name done dueDate position } }";
const DELETE_STAGE = "mutation($id: ID!) { deleteStage(id: $id) }";
const REORDER =
  "mutation($projectId: ID!, $stageIds: [ID!]!) { reorderStages(projectId: $projectId, stageIds: $stageIds) { id position } }";

const newProject = async (name: string, extra: Record<string, unknown> = {}) =>
  dataOf<{ id: string }>(
    await run(admin, CREATE, { input: { name, currency: "UZS", ...extra } }),
    "createProject",
  ).id;
const stagesOf = async (projectId: string) =>
  dataOf<{ stages: { id: string; name: string; position: number }[] }>(
    await run(admin, GET, { id: projectId }),
    "project",
  ).stages;

beforeAll(async () => {
  t = await createTestApp({ poolSize: 12 });
  ({ httpUrl: url } = await listen(t));
  tenantId = (await t.createTenant()).id;
  const otherTenantId = (await t.createTenant()).id;
  admin = await t.createUser(tenantId, "admin");
  reader = await t.createUser(tenantId, ["projects:read:all"]);
  outsider = await t.createUser(tenantId, []);
  const otherCtx = await contextOf(await t.createUser(otherTenantId, "admin"));
  const clientId = (await t.services.crm.clients.create(otherCtx, { name: "Their client" })).id;
  const projectId = (await t.services.projects.projects.create(otherCtx, { name: "Theirs", currency: "UZS" }))
    .id;
  const stageId = (await t.services.projects.stages.add(otherCtx, projectId, { name: "Their stage" })).id;
  other = { projectId, stageId, clientId };
});
afterAll(async () => t?.close());

describe("projects", () => {
  it("creates a project for a client, reads, lists, updates and deletes it (with its stages)", async () => {
    const clientId = (await t.services.crm.clients.create(await contextOf(admin), { name: "Orzu" })).id;
    const created = dataOf<Record<string, unknown>>(
      await run(admin, CREATE, {
        input: {
          name: "Shop fit-out",
          clientId,
          budget: "250000000",
          currency: "UZS",
          startDate: "2026-12-01",
          endDate: "2027-02-28",
          status: "active",
        },
      }),
      "createProject",
    );
    expect(created).toMatchObject({
      client: { name: "Orzu" },
      budget: "250000000",
      startDate: "2026-12-01",
      status: "active",
      stages: [],
    });
    const id = created.id as string;
    await run(admin, ADD_STAGE, { projectId: id, input: { name: "Design" } });
    expect(
      dataOf(
        await run(reader, LIST, { filters: [{ field: "name", operator: "like", value: "fit-out" }] }),
        "projects",
      ),
    ).toEqual({
      total: "1",
      data: [{ name: "Shop fit-out", stages: [{ position: 0 }] }],
    });
    expect(
      dataOf(await run(admin, UPDATE, { id, input: { status: "on_hold", clientId: null } }), "updateProject"),
    ).toMatchObject({
      status: "on_hold",
      clientId: null,
    });
    expect(dataOf(await run(admin, DELETE, { id }), "deleteProject")).toBe(true);
    expect(codeOf(await run(admin, GET, { id }))).toBe("NOT_FOUND");
  });

  it("refuses bad input naming the field: dates out of order, negative budget, unselected currency", async () => {
    const before = await t.db.withTenant(tenantId, (tx) => tx.project.count());
    const dates = await run(admin, CREATE, {
      input: { name: "X", currency: "UZS", startDate: "2026-12-02", endDate: "2026-12-01" },
    });
    expect(errorOf(dates)?.message).toMatch(/^validation error: endDate/);
    expect(codeOf(await run(admin, CREATE, { input: { name: "X", currency: "UZS", budget: "-5" } }))).toBe(
      "VALIDATION_ERROR",
    );
    expect(
      errorOf(await run(admin, CREATE, { input: { name: "X", currency: "JPY" } }))?.extensions.reason,
    ).toBe("projects.currency_not_selected");
    expect(await t.db.withTenant(tenantId, (tx) => tx.project.count())).toBe(before);
    const id = await newProject("Dated", { startDate: "2026-12-01" });
    expect(
      errorOf(await run(admin, UPDATE, { id, input: { endDate: "2026-11-30" } }))?.extensions.reason,
    ).toBe("projects.end_before_start");
  });

  it("guards every operation: credentials, permission, another organization's ids and references", async () => {
    const id = await newProject("Guarded");
    const stageId = dataOf<{ id: string }>(
      await run(admin, ADD_STAGE, { projectId: id, input: { name: "S" } }),
      "addStage",
    ).id;
    const operations: [string, Record<string, unknown>][] = [
      [LIST, {}],
      [GET, { id }],
      [CREATE, { input: { name: "N", currency: "UZS" } }],
      [UPDATE, { id, input: { name: "N" } }],
      [DELETE, { id }],
      [ADD_STAGE, { projectId: id, input: { name: "N" } }],
      [UPDATE_STAGE, { id: stageId, input: { done: true } }],
      [DELETE_STAGE, { id: stageId }],
      [REORDER, { projectId: id, stageIds: [stageId] }],
    ];
    for (const [query, variables] of operations) {
      expect(codeOf(await run(null, query, variables)), query).toBe("UNAUTHENTICATED");
      expect(codeOf(await run(outsider, query, variables)), query).toBe("FORBIDDEN");
    }
    expect(codeOf(await run(reader, ADD_STAGE, { projectId: id, input: { name: "N" } }))).toBe("FORBIDDEN");
    for (const [query, variables] of [
      [GET, { id: other.projectId }],
      [UPDATE, { id: other.projectId, input: { name: "Hijacked" } }],
      [DELETE, { id: other.projectId }],
      [ADD_STAGE, { projectId: other.projectId, input: { name: "Sneaky" } }],
      [UPDATE_STAGE, { id: other.stageId, input: { name: "Hijacked" } }],
      [DELETE_STAGE, { id: other.stageId }],
      [REORDER, { projectId: other.projectId, stageIds: [other.stageId] }],
      [CREATE, { input: { name: "For their client", currency: "UZS", clientId: other.clientId } }],
    ] as const) {
      expect(codeOf(await run(admin, query, variables)), query).toBe("NOT_FOUND");
    }
    // A stage of another project (of another organization) is not one of this project's stages.
    expect(
      errorOf(await run(admin, REORDER, { projectId: id, stageIds: [other.stageId] }))?.extensions.reason,
    ).toBe("projects.reorder_mismatch");
  });
});

describe("stages", () => {
  it("adds at the end or at a position, changes, removes and reorders without gaps or duplicates", async () => {
    const id = await newProject("Staged");
    for (const name of ["Design", "Build", "Handover"])
      await run(admin, ADD_STAGE, { projectId: id, input: { name } });
    dataOf(
      await run(admin, ADD_STAGE, { projectId: id, input: { name: "Survey", position: 0 } }),
      "addStage",
    );
    expect((await stagesOf(id)).map((stage) => [stage.position, stage.name])).toEqual([
      [0, "Survey"],
      [1, "Design"],
      [2, "Build"],
      [3, "Handover"],
    ]);
    const [survey, design, build, handover] = (await stagesOf(id)).map((stage) => stage.id);
    expect(
      dataOf(
        await run(admin, UPDATE_STAGE, { id: build, input: { done: true, dueDate: "2027-01-15" } }),
        "updateStage",
      ),
    ).toMatchObject({
      done: true,
      dueDate: "2027-01-15",
      position: 2,
    });
    dataOf(await run(admin, DELETE_STAGE, { id: design }), "deleteStage");
    expect((await stagesOf(id)).map((stage) => [stage.position, stage.name])).toEqual([
      [0, "Survey"],
      [1, "Build"],
      [2, "Handover"],
    ]);
    const reordered = dataOf<{ id: string; position: number }[]>(
      await run(admin, REORDER, { projectId: id, stageIds: [handover, survey, build] }),
      "reorderStages",
    );
    expect(reordered).toEqual([
      { id: handover, position: 0 },
      { id: survey, position: 1 },
      { id: build, position: 2 },
    ]);
    for (const stageIds of [
      [handover, survey],
      [handover, survey, build, build],
      [handover, survey, design],
    ]) {
      expect(errorOf(await run(admin, REORDER, { projectId: id, stageIds }))?.extensions).toMatchObject({
        code: "VALIDATION_ERROR",
        reason: "projects.reorder_mismatch",
      });
    }
    expect(codeOf(await run(admin, ADD_STAGE, { projectId: id, input: { name: "" } }))).toBe(
      "VALIDATION_ERROR",
    );
    expect(codeOf(await run(admin, UPDATE_STAGE, { id: build, input: { dueDate: "2027-13-01" } }))).toBe(
      "VALIDATION_ERROR",
    );
  });

  it("keeps positions 0..n-1 while reorders, additions and removals race on one project", async () => {
    const id = await newProject("Busy");
    for (let index = 0; index < 6; index += 1)
      await run(admin, ADD_STAGE, { projectId: id, input: { name: `S${index}` } });
    const initial = (await stagesOf(id)).map((stage) => stage.id);
    const shuffled = (seed: number) =>
      [...initial].sort((a, b) => ((a.charCodeAt(30) * seed) % 7) - ((b.charCodeAt(30) * seed) % 7));
    const racing = [
      ...[1, 2, 3, 4, 5, 6].map((seed) => run(admin, REORDER, { projectId: id, stageIds: shuffled(seed) })),
      ...[0, 1, 2].map((index) =>
        run(admin, ADD_STAGE, { projectId: id, input: { name: `New ${index}`, position: index } }),
      ),
      run(admin, DELETE_STAGE, { id: initial[2] }),
    ];
    const results = await Promise.all(racing);
    for (const result of results) {
      // A reorder that ran after an add or a delete names a set that no longer matches: refused, never half-applied.
      if (result.body.errors) expect(errorOf(result)?.extensions.reason).toBe("projects.reorder_mismatch");
    }
    const final = await stagesOf(id);
    expect(final.map((stage) => stage.position)).toEqual([...final.keys()]);
    expect(final).toHaveLength(6 + 3 - 1);
    expect(new Set(final.map((stage) => stage.id)).size).toBe(final.length);
    const stored = await t.db.withTenant(tenantId, (tx) =>
      tx.projectStage.findMany({
        where: { projectId: id },
        orderBy: { position: "asc" },
        select: { position: true },
      }),
    );
    expect(stored.map((row) => row.position)).toEqual([...stored.keys()]);
  });
});
