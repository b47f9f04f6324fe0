import { describe, expect, it } from "vitest";
import { createWorkGates, gatedServices, nestedGate } from "./work-gate";

/** One turn of the event loop: a freed slot passes to the next waiting call on the next turn. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A promise with its resolve function, to hold a call open until the test lets it finish. */
const held = () => {
  let release: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
};

describe("work gates", () => {
  it("runs at most `concurrency` calls of one caller at once, the rest in order, others unaffected", async () => {
    const gates = createWorkGates(2);
    const holds = [held(), held(), held(), held()];
    const started: number[] = [];
    const calls = holds.map((hold, index) =>
      gates.gate("a").run(async () => {
        started.push(index);
        await hold.promise;
        return index;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(gates.load("a")).toEqual({ running: 2, waiting: 2 });
    // Another caller has slots of its own.
    expect(await gates.gate("b").run(async () => "b")).toBe("b");
    holds[1]?.release();
    await calls[1];
    await nextTurn();
    expect(started).toEqual([0, 1, 2]);
    for (const hold of holds) hold.release();
    expect(await Promise.all(calls)).toEqual([0, 1, 2, 3]);
    // Nothing is kept for an idle caller.
    expect(gates.size()).toBe(0);
  });

  it("drops a waiting call whose signal aborts, and frees the slot of a call that throws", async () => {
    const gates = createWorkGates(1);
    const hold = held();
    const first = gates.gate("a").run(() => hold.promise);
    const controller = new AbortController();
    let ran = false;
    const waiting = gates.gate("a").run(() => {
      ran = true;
    }, controller.signal);
    controller.abort(new Error("client gone"));
    await expect(waiting).rejects.toThrow("client gone");
    expect(gates.load("a")).toEqual({ running: 1, waiting: 0 });
    hold.release();
    await first;
    await expect(
      gates.gate("a").run(() => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(ran).toBe(false);
    expect(gates.size()).toBe(0);
  });

  it("does not run a waiting call whose signal aborted after it was handed a slot, before it started", async () => {
    const gates = createWorkGates(1);
    const hold = held();
    const first = gates.gate("a").run(() => hold.promise);
    const controller = new AbortController();
    let ran = false;
    const waiting = gates.gate("a").run(() => {
      ran = true;
    }, controller.signal);
    const after = gates.gate("a").run(async () => "after");
    hold.release();
    await first;
    // The slot is on its way to the waiting call (it starts on the next turn); its client goes now.
    controller.abort(new Error("client gone"));
    await expect(waiting).rejects.toThrow("client gone");
    expect(ran).toBe(false);
    // The slot passed on to the next call.
    expect(await after).toBe("after");
    expect(gates.size()).toBe(0);
  });

  it("bounds an organization's callers together, on top of each caller's own bound", async () => {
    const callers = createWorkGates(2);
    const tenants = createWorkGates(3);
    const gateOf = (user: string) => nestedGate(callers.gate(user), tenants.gate("org"));
    const hold = held();
    const started: string[] = [];
    const calls = ["a", "a", "a", "b", "b", "b"].map((user, index) =>
      gateOf(user).run(async () => {
        started.push(`${user}${index}`);
        await hold.promise;
      }),
    );
    await Promise.resolve();
    // a takes its two, b one: the organization's three. The rest wait, b's third for b's own slot.
    expect(started).toEqual(["a0", "a1", "b3"]);
    expect(tenants.load("org")).toEqual({ running: 3, waiting: 1 });
    expect(callers.load("a")).toEqual({ running: 2, waiting: 1 });
    expect(callers.load("b")).toEqual({ running: 2, waiting: 1 });
    // Another organization is not held up.
    expect(await nestedGate(callers.gate("c"), tenants.gate("other")).run(async () => "c")).toBe("c");
    hold.release();
    await Promise.all(calls);
    expect(started).toHaveLength(6);
    expect(callers.size() + tenants.size()).toBe(0);
  });

  it("gates every method of a services tree, at any depth, with `this` intact", async () => {
    const gates = createWorkGates(1);
    const services = {
      crm: {
        chats: {
          prefix: "chat",
          name(this: { prefix: string }, id: string) {
            return Promise.resolve(`${this.prefix}:${id}`);
          },
        },
      },
    };
    const gated = gatedServices(services, gates.gate("a"), () => undefined);
    const hold = held();
    const blocker = gates.gate("a").run(() => hold.promise);
    const call = gated.crm.chats.name("1");
    await Promise.resolve();
    expect(gates.load("a")).toEqual({ running: 1, waiting: 1 });
    hold.release();
    await blocker;
    await nextTurn();
    expect(await call).toBe("chat:1");
    expect(gated.crm.chats.prefix).toBe("chat");
    expect(gated.crm).toBe(gated.crm);
  });
});
