import type { RecordDeps } from "@hisob/crud";
import { createProjectsService } from "./projects/projects.service";
import { createStagesService } from "./stages/stages.service";

/** The Projects module's services, shared by every transport. */
export const createProjectsServices = (deps: RecordDeps) => ({
  projects: createProjectsService(deps),
  stages: createStagesService(deps),
});

export type ProjectsServices = ReturnType<typeof createProjectsServices>;
