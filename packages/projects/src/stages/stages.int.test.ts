import { createServiceTestKit, issuePaths, refusalOf, type ServiceTestKit } from "@hisob/core/testing";
import type { TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProjectsServices, type ProjectsServices } from "../projects-services";
// Registers the projects permissions, which the kit syncs into the database: a tenant's admin role holds them.
import "../projects.permissions";

/*
 * A project's stages through the projects services (docs/decisions/0107-a-codebase-a-newcomer-can-carry-on.md):
 * added at the end or at a position, reordered as a whole, changed and removed; a project's dates in
 * order. Over REST (apps/server/src/transports/rest/modules-rest.int.test.ts) stay the paths, the
 * permission and other organizations' ids.
 */

let t: ServiceTestKit<{ projects: ProjectsServices }>;
let admin: TenantContext;

const projects = () => t.services.projects;
const names = (stages: { name: string }[]) => stages.map((stage) => stage.name);

beforeAll(async () => {
  t = await createServiceTestKit({ services: (deps) => ({ projects: createProjectsServices(deps) }) });
  const tenant = await t.createTenant();
  admin = await t.contextOf(await t.createUser(tenant.id, "admin"));
  await t.services.currencies.setSelected(admin, { codes: ["UZS"] });
});

afterAll(async () => {
  await t?.close();
});

describe("a project's stages", () => {
  it("creates a project, adds, reorders, changes and removes its stages", async () => {
    const project = await projects().projects.create(admin, {
      name: "Annual audit 2026",
      currency: "UZS",
      budget: "500000",
    });
    const plan = await projects().stages.add(admin, project.id, { name: "Plan" });
    const fieldwork = await projects().stages.add(admin, project.id, { name: "Fieldwork" });
    const report = await projects().stages.add(admin, project.id, { name: "Report", position: 0 });
    expect(names(await projects().stages.list(admin, project.id))).toEqual(["Report", "Plan", "Fieldwork"]);

    const reordered = await projects().stages.reorder(admin, project.id, {
      stageIds: [plan.id, fieldwork.id, report.id],
    });
    expect(reordered.map((stage) => [stage.name, stage.position])).toEqual([
      ["Plan", 0],
      ["Fieldwork", 1],
      ["Report", 2],
    ]);
    expect(await projects().stages.update(admin, plan.id, { done: true })).toMatchObject({
      id: plan.id,
      done: true,
    });
    await projects().stages.delete(admin, fieldwork.id);
    expect(await projects().stages.list(admin, project.id)).toHaveLength(2);

    expect(
      issuePaths(await refusalOf(projects().stages.reorder(admin, project.id, { stageIds: [] }))),
    ).toContain("stageIds");
    const backwards = await refusalOf(
      projects().projects.create(admin, {
        name: "Bad",
        currency: "UZS",
        startDate: "2026-02-01",
        endDate: "2026-01-01",
      }),
    );
    expect(issuePaths(backwards)).toContain("endDate");
    expect((await projects().projects.list(admin, {})).total).toBe(1);
  });
});
