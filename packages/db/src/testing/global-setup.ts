import { mkdirSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { dropTemplate, prepareTemplate, type TestTemplate } from "./test-databases";

declare module "vitest" {
  export interface ProvidedContext {
    testTemplate: TestTemplate;
  }
}

/** vitest globalSetup for integration tests: one migrated template per run. */
export default async function setup(project: TestProject) {
  const tmpDir = path.resolve(import.meta.dirname, "../../../../.tmp");
  mkdirSync(tmpDir, { recursive: true });
  const template = await prepareTemplate({ adminUrl: process.env.DATABASE_URL || undefined, tmpDir });
  project.provide("testTemplate", template);
  return async () => {
    await dropTemplate(template);
  };
}
