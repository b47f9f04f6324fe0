import { crmOperations, type TClientDto } from "@hisob/crm";
import { projectsOperations, type TProjectDto, type TStageDto } from "@hisob/projects";
import DataLoader from "dataloader";
import { fieldOf, permissionsOf } from "../catalog-sdl";
import { callerOf, type GraphqlContext } from "../context";
import { loadRecord, mergeResolvers, recordResolvers, recordSdl } from "../records";
import type { GraphqlModule } from "../registry";
import { enumTypeSdl } from "../zod-sdl";

/*
 * Projects and their ordered stages. Projects are records of the building block; stages are added,
 * changed, removed and reordered by the stages service, which keeps positions 0..n-1.
 */

const { projects } = projectsOperations;

const typeDefs = /* GraphQL */ `
${enumTypeSdl("ProjectStatus", fieldOf(projects.get.output, "status"))}
  "One step of a project; positions run 0..n-1 without gaps."
  type Stage {
    id: ID!
    projectId: ID!
    name: String!
    position: Int!
    dueDate: String
    done: Boolean!
    createdAt: Time!
    updatedAt: Time!
  }

  input StageInput {
    name: String!
    dueDate: String
    "Where to insert it (0 = first); default last."
    position: Int
  }

  input StagePatch {
    name: String
    dueDate: String
    done: Boolean
  }

  type Mutation {
    "Adds a stage (projects:update:all); the stages after it move down."
    addStage(projectId: ID!, input: StageInput!): Stage!
    "Changes a stage's name, due date or done flag (projects:update:all)."
    updateStage(id: ID!, input: StagePatch!): Stage!
    "Removes a stage (projects:update:all); the ones after it move up."
    deleteStage(id: ID!): Boolean!
    "Puts every stage of the project in the given order (projects:update:all); returns them first to last."
    reorderStages(projectId: ID!, stageIds: [ID!]!): [Stage!]!
  }
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
    recordResolvers({ type: "Project", plural: "projects" }, (services) => services.projects.projects),
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
      Mutation: {
        addStage: (_: unknown, args: { projectId: string; input: unknown }, context: GraphqlContext) =>
          context.services.projects.stages.add(callerOf(context), args.projectId, args.input),
        updateStage: (_: unknown, args: { id: string; input: unknown }, context: GraphqlContext) =>
          context.services.projects.stages.update(callerOf(context), args.id, args.input),
        deleteStage: async (_: unknown, args: { id: string }, context: GraphqlContext) => {
          await context.services.projects.stages.delete(callerOf(context), args.id);
          return true;
        },
        reorderStages: (
          _: unknown,
          args: { projectId: string; stageIds: string[] },
          context: GraphqlContext,
        ) =>
          context.services.projects.stages.reorder(callerOf(context), args.projectId, {
            stageIds: args.stageIds,
          }),
      },
    },
  ),
};
