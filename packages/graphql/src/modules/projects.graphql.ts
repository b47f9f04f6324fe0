import { crmOperations, type TClientDto } from "@hisob/crm";
import { projectsOperations, type TProjectDto, type TStageDto } from "@hisob/projects";
import DataLoader from "dataloader";
import { fieldOf, permissionsOf } from "../catalog-sdl";
import { callerOf, type GraphqlContext, type GraphqlServices } from "../context";
import { operationField, operationFieldsOf } from "../operations";
import { loadRecord, mergeResolvers, recordResolvers, recordSdl } from "../records";
import type { GraphqlModule } from "../registry";
import { enumTypeSdl, inputTypeSdl, objectTypeSdl } from "../zod-sdl";

/*
 * Projects and their ordered stages. Projects are records of the building block; stages are added,
 * changed, removed and reordered by the stages' catalog operations, whose service keeps positions 0..n-1.
 * Every type, input and permission is the catalog's (docs/decisions/0114-a-codebase-a-newcomer-can-carry-on-continued.md).
 */

const { projects, stages } = projectsOperations;
const services = (all: GraphqlServices) => all.projects;

/** The stages' mutations: the catalog's operations, under GraphQL's names and arguments. */
const stageMutations = operationFieldsOf("Mutation", [
  operationField({
    name: "addStage",
    operation: stages.add,
    services,
    args: "projectId: ID!, input: StageInput!",
    returns: "Stage!",
    description: (permissions) => `Adds a stage (${permissions}); the stages after it move down.`,
    input: (args) => ({ id: args.projectId, stage: args.input }),
    body: "input",
  }),
  operationField({
    name: "updateStage",
    operation: stages.update,
    services,
    args: "id: ID!, input: StagePatch!",
    returns: "Stage!",
    description: (permissions) => `Changes a stage's name, due date or done flag (${permissions}).`,
    input: (args) => ({ id: args.id, data: args.input }),
    body: "input",
  }),
  operationField({
    name: "deleteStage",
    operation: stages.delete,
    services,
    args: "id: ID!",
    returns: "Boolean!",
    description: (permissions) => `Removes a stage (${permissions}); the ones after it move up.`,
    answer: () => true,
  }),
  operationField({
    name: "reorderStages",
    operation: stages.reorder,
    services,
    args: "projectId: ID!, stageIds: [ID!]!",
    returns: "[Stage!]!",
    description: (permissions) =>
      `Puts every stage of the project in the given order (${permissions}); returns them first to last.`,
    input: (args) => ({ id: args.projectId, order: { stageIds: args.stageIds } }),
  }),
]);

const typeDefs = /* GraphQL */ `
${enumTypeSdl("ProjectStatus", fieldOf(projects.get.output, "status"))}
${objectTypeSdl("Stage", stages.add.output, {
  description: "One step of a project; positions run 0..n-1 without gaps.",
})}
${inputTypeSdl("StageInput", fieldOf(stages.add.input, "stage"), {
  fields: { position: { description: "Where to insert it (0 = first); default last." } },
})}
${inputTypeSdl("StagePatch", fieldOf(stages.update.input, "data"))}
${stageMutations.sdl}
${recordSdl({
  type: "Project",
  plural: "projects",
  operations: projects,
  types: {
    item: {
      fields: {
        budget: { type: "Int64", description: "Minor units of currency." },
        startDate: { description: "YYYY-MM-DD" },
        status: "ProjectStatus",
      },
      extra: `    "Needs ${permissionsOf(crmOperations.clients.get)}."
    client: Client
    "First to last."
    stages: [Stage!]!
`,
    },
    input: { fields: { budget: "Int64", status: "ProjectStatus" } },
    patch: { fields: { budget: "Int64", status: "ProjectStatus" } },
  },
  filterFields: ["name", "status", "clientId", "currency", "startDate", "endDate"],
})}
`;

export const projectsModule: GraphqlModule = {
  name: "projects",
  typeDefs,
  resolvers: mergeResolvers(
    recordResolvers({ type: "Project", plural: "projects" }, (all) => all.projects.projects),
    stageMutations.resolvers,
    {
      Project: {
        client: (project: TProjectDto, _: unknown, context: GraphqlContext) =>
          loadRecord<TClientDto>(
            context,
            "crm.clients",
            (caller, ids) => context.services.crm.clients.findByIds(caller, ids),
            project.clientId,
          ),
        // One query for the stages of every project on the page.
        stages: (project: TProjectDto, _: unknown, context: GraphqlContext) =>
          context.loaders
            .use(
              "projects.stages",
              () =>
                new DataLoader<string, TStageDto[]>(async (ids) => {
                  const grouped = await context.services.projects.stages.listByProjects(
                    callerOf(context),
                    ids,
                  );
                  return ids.map((id) => grouped.get(id) ?? []);
                }),
            )
            .load(project.id),
      },
    },
  ),
};
