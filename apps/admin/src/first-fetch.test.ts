import { afterEach, describe, expect, it, vi } from "vitest";
import { urlOf } from "./catalog";
import { begin, FIRST_USERS_URL, takeStarted } from "./first-fetch";

/*
 * What a screen takes from the requests the entry started. startFirstScreen itself needs the browser
 * (the address, the session cookie): the admin's browser tests and the admin-users-100k bench run it.
 */

describe("requests started by the entry", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("the users screen's first page is the address the screen asks for as it opens", () => {
    expect(FIRST_USERS_URL).toBe("/users?sortBy=createdAt&order=desc&limit=20&offset=0");
    // The screen builds its address from the catalog: the same text, or the started answer goes unused.
    expect(urlOf("users.list", { sortBy: "createdAt", order: "desc", limit: 20, offset: 0 })).toBe(
      FIRST_USERS_URL,
    );
  });

  it("a started answer is taken once; the next ask is a request of its own", async () => {
    begin("/once", async () => "started");
    const request = vi.fn(async () => "asked");
    await expect(takeStarted("/once", request)).resolves.toBe("started");
    expect(request).not.toHaveBeenCalled();
    await expect(takeStarted("/once", request)).resolves.toBe("asked");
    expect(request).toHaveBeenCalledTimes(1);
  });

  it("nothing started for an address: asks now", async () => {
    const request = vi.fn(async () => "asked");
    await expect(takeStarted("/never-started", request)).resolves.toBe("asked");
    expect(request).toHaveBeenCalledTimes(1);
  });

  it("a started request that failed is asked again, so the screen reports its own failure", async () => {
    begin("/failed", async () => {
      throw new Error("started in the browser's language");
    });
    const request = vi.fn(async () => {
      throw new Error("asked in the user's language");
    });
    await expect(takeStarted("/failed", request)).rejects.toThrow("asked in the user's language");
    expect(request).toHaveBeenCalledTimes(1);
  });

  it("an answer started more than ten seconds ago is not the screen's first one: asks again", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    begin("/stale", async () => "old");
    vi.advanceTimersByTime(10_001);
    await expect(takeStarted("/stale", async () => "fresh")).resolves.toBe("fresh");
  });
});
