// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { syncIds } from "./list-screen-parts";

/* Moving a membership (a user's roles, a group's members): what the routes are asked, in order. */
const record = () => {
  const calls: string[] = [];
  return {
    calls,
    add: async (ids: string[]) => void calls.push(`add ${ids.join(",")}`),
    remove: async (id: string) => void calls.push(`remove ${id}`),
  };
};

describe("syncIds", () => {
  it("adds the new ids in one request, then removes each one gone", async () => {
    const routes = record();
    await syncIds(["a", "b", "c"], ["b", "d", "e"], routes.add, routes.remove);
    expect(routes.calls).toEqual(["add d,e", "remove a", "remove c"]);
  });

  it("asks nothing when the membership did not change (order aside)", async () => {
    const routes = record();
    await syncIds(["a", "b"], ["b", "a"], routes.add, routes.remove);
    expect(routes.calls).toEqual([]);
  });

  it("stops at the first refused request (the rest is not attempted)", async () => {
    const calls: string[] = [];
    const refused = syncIds(
      ["a", "b"],
      [],
      async () => {},
      async (id) => {
        calls.push(id);
        throw new Error(`refused ${id}`);
      },
    );
    await expect(refused).rejects.toThrow("refused a");
    expect(calls).toEqual(["a"]);
  });
});
