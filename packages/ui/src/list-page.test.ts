// @vitest-environment happy-dom
import { App } from "antd";
import { act, createElement, useCallback } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useListData, usePaging } from "./list-page";

/*
 * The list screens' data hooks, rendered by React for real (happy-dom for the document): a search
 * typed fast asks the server several times, and only the newest question's answer may be shown.
 */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

type Deferred<T> = { promise: Promise<T>; resolve: (value: T) => void; reject: (error: Error) => void };
const deferred = <T>(): Deferred<T> => {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
};

/** A fake server: each search is a pending answer the test settles when and in which order it likes. */
const server = () => {
  const asked: { search: string; answer: Deferred<string[]> }[] = [];
  return {
    asked,
    fetch: (search: string) => {
      const answer = deferred<string[]>();
      asked.push({ search, answer });
      return answer.promise;
    },
  };
};

type Seen = ReturnType<typeof useListData<string[]>>;

let root: Root;
let container: HTMLElement;
beforeEach(() => {
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

/** Renders a list over `search` (memoized per search, as the screens do); returns what the hook gave last. */
const renderList = (fetch: (search: string) => Promise<string[]>) => {
  const seen: { current: Seen | null } = { current: null };
  const List = ({ search }: { search: string }) => {
    seen.current = useListData(useCallback(() => fetch(search), [fetch, search]));
    return null;
  };
  const show = (search: string) =>
    act(() => root.render(createElement(App, null, createElement(List, { search }))));
  return { seen, show };
};

/** Lets settled promises' callbacks run inside act (state updates flushed). */
const settle = (work: () => void) =>
  act(async () => {
    work();
    await Promise.resolve();
    await new Promise((done) => setTimeout(done, 0));
  });

describe("useListData", () => {
  it("loads on mount and shows the answer", async () => {
    const api = server();
    const { seen, show } = renderList(api.fetch);
    await show("");
    expect(api.asked.map((a) => a.search)).toEqual([""]);
    expect(seen.current?.loading).toBe(true);
    expect(seen.current?.data).toBeNull();
    await settle(() => api.asked[0]?.answer.resolve(["ali", "vali"]));
    expect(seen.current?.data).toEqual(["ali", "vali"]);
    expect(seen.current?.loading).toBe(false);
    expect(seen.current?.error).toBeNull();
  });

  it("drops a stale search answer that arrives after a newer one", async () => {
    const api = server();
    const { seen, show } = renderList(api.fetch);
    await show("a");
    await show("al");
    await show("ali");
    expect(api.asked.map((a) => a.search)).toEqual(["a", "al", "ali"]);
    // The newest question is answered first…
    await settle(() => api.asked[2]?.answer.resolve(["ali"]));
    expect(seen.current?.data).toEqual(["ali"]);
    expect(seen.current?.loading).toBe(false);
    // …then the older ones, late: neither replaces it, nor does a late failure show an error.
    await settle(() => api.asked[0]?.answer.resolve(["ali", "anvar", "aziz"]));
    await settle(() => api.asked[1]?.answer.reject(new Error("timeout")));
    expect(seen.current?.data).toEqual(["ali"]);
    expect(seen.current?.error).toBeNull();
    expect(seen.current?.loading).toBe(false);
  });

  it("keeps loading while only an older answer has arrived", async () => {
    const api = server();
    const { seen, show } = renderList(api.fetch);
    await show("a");
    await show("al");
    await settle(() => api.asked[0]?.answer.resolve(["anvar"]));
    expect(seen.current?.data).toBeNull();
    expect(seen.current?.loading).toBe(true);
    await settle(() => api.asked[1]?.answer.resolve(["alisher"]));
    expect(seen.current?.data).toEqual(["alisher"]);
    expect(seen.current?.loading).toBe(false);
  });

  it("shows the newest request's error, and a retry clears it", async () => {
    const api = server();
    const { seen, show } = renderList(api.fetch);
    await show("x");
    await settle(() => api.asked[0]?.answer.reject(new Error("The server is unavailable")));
    expect(seen.current?.error).toBe("The server is unavailable");
    expect(seen.current?.loading).toBe(false);
    await act(async () => seen.current?.load());
    expect(seen.current?.error).toBeNull();
    expect(seen.current?.loading).toBe(true);
    await settle(() => api.asked[1]?.answer.resolve(["xurshid"]));
    expect(seen.current?.data).toEqual(["xurshid"]);
  });

  it("act: a change reloads the list; a refused change reports false and does not reload", async () => {
    const api = server();
    const { seen, show } = renderList(api.fetch);
    await show("");
    await settle(() => api.asked[0]?.answer.resolve(["ali"]));
    let done: boolean | undefined;
    await act(async () => {
      done = await seen.current?.act(async () => {});
    });
    expect(done).toBe(true);
    expect(api.asked).toHaveLength(2);
    await settle(() => api.asked[1]?.answer.resolve(["ali", "vali"]));
    expect(seen.current?.data).toEqual(["ali", "vali"]);
    await act(async () => {
      done = await seen.current?.act(async () => {
        throw new Error("Forbidden");
      });
    });
    expect(done).toBe(false);
    expect(api.asked).toHaveLength(2);
    expect(seen.current?.data).toEqual(["ali", "vali"]);
  });
});

describe("usePaging", () => {
  it("turns antd's page into the range to ask for, and goes back to the first page", async () => {
    const seen: { current: ReturnType<typeof usePaging> | null } = { current: null };
    const Paged = () => {
      seen.current = usePaging(20);
      return null;
    };
    await act(() => root.render(createElement(Paged)));
    expect([seen.current?.limit, seen.current?.offset]).toEqual([20, 0]);
    await act(() => seen.current?.change({ current: 3, pageSize: 50 }));
    expect([seen.current?.limit, seen.current?.offset]).toEqual([50, 100]);
    expect(seen.current?.pagination(1000, String)).toMatchObject({ current: 3, pageSize: 50, total: 1000 });
    await act(() => seen.current?.reset());
    expect([seen.current?.limit, seen.current?.offset]).toEqual([50, 0]);
    expect(seen.current?.pagination(1000, String, [20, 50])).toMatchObject({
      showSizeChanger: true,
      pageSizeOptions: [20, 50],
    });
  });
});
