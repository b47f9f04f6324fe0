import { type ComponentType, createElement as h, lazy, type ReactNode, Suspense } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { lazyLoaded } from "./lazy-loaded";

// Tests are .ts files (the unit project's pattern): elements made with createElement.
const Screen = ({ name }: { name: string }) => h("h1", null, name);
const el = (component: ComponentType<{ name: string }>, name: string) => h(component, { name });

/** The markup of `element` inside a Suspense boundary whose fallback says "loading" (without React's comments). */
const rendered = (element: ReactNode) =>
  renderToString(h(Suspense, { fallback: h("p", null, "loading") }, element)).replace(/<!--.*?-->/g, "");

describe("lazyLoaded: a lazy component that renders at once when its code is here (decision 0105)", () => {
  it("renders the component, not the fallback, once its code has arrived", async () => {
    const Lazy = lazyLoaded(async () => Screen);
    await Lazy.preload();
    expect(rendered(el(Lazy, "Dashboard"))).toBe("<h1>Dashboard</h1>");
  });

  it("where React.lazy suspends even when its code has already arrived", async () => {
    const load = Promise.resolve({ default: Screen });
    await load;
    const Plain = lazy(() => load);
    expect(rendered(el(Plain, "Dashboard"))).toContain("loading");
  });

  it("renders what `ready` gives without fetching", () => {
    let fetched = 0;
    const Lazy = lazyLoaded(
      async () => {
        fetched += 1;
        return Screen;
      },
      () => Screen,
    );
    expect(rendered(el(Lazy, "Accounts"))).toBe("<h1>Accounts</h1>");
    expect(fetched).toBe(0);
  });

  it("suspends while the code is on its way, and fetches it once", () => {
    let fetched = 0;
    const Lazy = lazyLoaded(() => {
      fetched += 1;
      return new Promise<typeof Screen>(() => undefined);
    });
    expect(rendered(el(Lazy, "Reports"))).toContain("loading");
    void Lazy.preload();
    expect(fetched).toBe(1);
  });

  it("fetches again after a failed fetch", async () => {
    let attempts = 0;
    const Lazy = lazyLoaded(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error("network");
      return Screen;
    });
    await expect(Lazy.preload()).rejects.toThrow("network");
    await Lazy.preload();
    expect(attempts).toBe(2);
    expect(rendered(el(Lazy, "Debts"))).toBe("<h1>Debts</h1>");
  });
});
