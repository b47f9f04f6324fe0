import { registerPermissions } from "@hisob/kernel";

/** The Projects module's permissions; the `admin` role of every organization gets them at start. */
export const PROJECTS_PERMISSIONS = registerPermissions("projects", {
  "projects:create:all": "Create projects",
  "projects:read:all": "Read projects and their stages",
  "projects:update:all": "Update projects and add, change, reorder and remove their stages",
  "projects:delete:all": "Delete projects (with their stages)",
});
