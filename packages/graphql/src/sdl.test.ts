import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { printServedSchema, SDL_PATH } from "./sdl";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

it("the checked-in SDL is the served schema (run npm run graphql:schema after changing it)", () => {
  expect(readFileSync(path.join(root, SDL_PATH), "utf8")).toBe(printServedSchema());
});
