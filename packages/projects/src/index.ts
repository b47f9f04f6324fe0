export * from "./projects/projects.schema";
export { projectsOperations } from "./projects.operations";
export { PROJECTS_PERMISSIONS } from "./projects.permissions";
export { createProjectsServices, type ProjectsServices } from "./projects-services";
export * from "./stages/stages.schema";
