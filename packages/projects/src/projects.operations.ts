import { crudPermissions, recordOperationsOf } from "@hisob/crud";
import { operationsOf, ZIdInput } from "@hisob/kernel";
import { z } from "zod";
import {
  PROJECT_SORT_FIELDS,
  ZCreateProjectInput,
  ZProjectDto,
  ZUpdateProjectInput,
} from "./projects/projects.schema";
import type { PROJECTS_PERMISSIONS } from "./projects.permissions";
import type { ProjectsServices } from "./projects-services";
import { ZAddStageInput, ZReorderStagesInput, ZStageDto, ZUpdateStageInput } from "./stages/stages.schema";

type ProjectsPermission = (typeof PROJECTS_PERMISSIONS)[number];
const op = operationsOf<ProjectsServices, ProjectsPermission>();
const records = recordOperationsOf<ProjectsServices, ProjectsPermission>();

const tag = "projects: stages";

/** The Projects module's operations: REST routes, OpenAPI and tRPC procedures are derived from them. */
export const projectsOperations = {
  projects: records({
    path: "/projects",
    tag: "projects",
    service: (services) => services.projects,
    sortFields: PROJECT_SORT_FIELDS,
    schemas: { create: ZCreateProjectInput, update: ZUpdateProjectInput, item: ZProjectDto },
    permissions: crudPermissions("projects"),
    summaries: {
      list: "List projects",
      get: "Get a project",
      create: "Create a project (optionally for a CRM client)",
      update: "Change a project",
      delete: "Delete a project with its stages",
    },
  }),
  stages: {
    list: op.query({
      http: { method: "GET", path: "/projects/:id/stages", status: 200 },
      input: ZIdInput,
      output: z.array(ZStageDto),
      access: { requires: ["projects:read:all"] },
      summary: "A project's stages, first to last",
      tag,
      call: (services, ctx, input) => services.stages.list(ctx, input.id),
    }),
    add: op.mutation({
      http: { method: "POST", path: "/projects/:id/stages", status: 201, rest: "stage" },
      input: ZIdInput.extend({ stage: ZAddStageInput }),
      output: ZStageDto,
      access: { requires: ["projects:update:all"] },
      summary: "Add a stage at a position (default last); the ones after it move down",
      tag,
      call: (services, ctx, input) => services.stages.add(ctx, input.id, input.stage),
    }),
    reorder: op.mutation({
      http: { method: "PUT", path: "/projects/:id/stages/order", status: 200, rest: "order" },
      input: ZIdInput.extend({ order: ZReorderStagesInput }),
      output: z.array(ZStageDto),
      access: { requires: ["projects:update:all"] },
      summary: "Put the project's stages in a new order (every stage exactly once)",
      tag,
      call: (services, ctx, input) => services.stages.reorder(ctx, input.id, input.order),
    }),
    update: op.mutation({
      http: { method: "PUT", path: "/projects/stages/:id", status: 200, rest: "data" },
      input: ZIdInput.extend({ data: ZUpdateStageInput }),
      output: ZStageDto,
      access: { requires: ["projects:update:all"] },
      summary: "Rename a stage, set its due date or mark it done",
      tag,
      call: (services, ctx, input) => services.stages.update(ctx, input.id, input.data),
    }),
    delete: op.mutation({
      http: { method: "DELETE", path: "/projects/stages/:id", status: 204 },
      input: ZIdInput,
      output: z.null(),
      access: { requires: ["projects:update:all"] },
      summary: "Remove a stage; the ones after it move up",
      tag,
      call: async (services, ctx, input) => {
        await services.stages.delete(ctx, input.id);
        return null;
      },
    }),
  },
};
