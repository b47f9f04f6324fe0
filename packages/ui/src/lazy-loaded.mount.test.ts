// @vitest-environment happy-dom
import {
  Component,
  type ComponentType,
  createElement as h,
  type ReactNode,
  Suspense,
  startTransition,
  useEffect,
  useState,
} from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { lazyLoaded } from "./lazy-loaded";

/*
 * lazyLoaded mounted by React for real (happy-dom for the document), as the apps' screens are: a
 * screen keeps its state when its parent renders again after its code arrived, and a failed fetch of
 * its code is fetched again by the next mount (decision 0105).
 *
 * Without act(): React's own scheduler, as in the page. There a change of screen (a transition) whose
 * chunk settles within the render is replayed in place, so the screen commits through React.lazy —
 * the case in which a later render of the parent must not swap it for the loaded component.
 */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;

/** A screen with state of its own (what was typed) that counts its mounts. */
let mounts = 0;
const FormScreen = ({ title }: { title: string }) => {
  const [typed, setTyped] = useState("");
  useEffect(() => {
    mounts += 1;
  }, []);
  return h(
    "form",
    null,
    h("h1", null, title),
    h("output", null, typed),
    h("button", { type: "button", onClick: () => setTyped((t) => `${t}x`) }, "type"),
  );
};

class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    caught.push(error);
  }
  override render() {
    return this.state.failed ? h("p", { role: "alert" }, "failed") : this.props.children;
  }
}

const page = (screen: ComponentType<{ title: string }>, title: string) =>
  h(
    Boundary,
    null,
    h(Suspense, { fallback: h("p", null, "loading") }, h("main", null, h(screen, { title }))),
  );

let container: HTMLElement;
let root: Root;
let caught: unknown[];
beforeEach(() => {
  mounts = 0;
  caught = [];
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container, { onCaughtError: () => undefined });
  root.render(h("p", null, "shell"));
});
afterEach(() => {
  root.unmount();
  container.remove();
});

const text = (selector: string) => container.querySelector(selector)?.textContent;
const shows = (selector: string, expected: string) =>
  vi.waitFor(() => expect(text(selector)).toBe(expected), { timeout: 3_000, interval: 5 });
const type = () => (container.querySelector("button") as HTMLButtonElement).click();

describe("lazyLoaded mounted: one element type per mount, and a failed fetch fetched again (decision 0105)", () => {
  it("keeps a screen shown through React.lazy mounted, with what was typed, when its parent renders again", async () => {
    const Screen = lazyLoaded(async () => FormScreen);
    startTransition(() => root.render(page(Screen, "Invoice")));
    await shows("h1", "Invoice");
    type();
    await shows("output", "x");
    type();
    await shows("output", "xx");
    expect(mounts).toBe(1);

    // The parent renders again after the code arrived (a session refresh, a change of language).
    root.render(page(Screen, "Счёт-фактура"));
    await shows("h1", "Счёт-фактура");
    expect(text("output")).toBe("xx");
    expect(mounts).toBe(1);
  });

  it("renders a screen whose code arrived at once, and keeps it on the parent's renders", async () => {
    const Screen = lazyLoaded(async () => FormScreen);
    await Screen.preload();
    root.render(page(Screen, "Accounts"));
    await shows("h1", "Accounts");
    type();
    await shows("output", "x");
    root.render(page(Screen, "Hisoblar"));
    await shows("h1", "Hisoblar");
    expect(text("output")).toBe("x");
    expect(mounts).toBe(1);
  });

  // React renders once more after an error before it commits the boundary; that render mounts the
  // screen afresh too, and must not fetch again (a fetch that keeps failing would be tried without end).
  it("shows the error once for a failed fetch, and a later mount fetches again and renders the screen", async () => {
    let attempts = 0;
    let online = false;
    const Screen = lazyLoaded(async () => {
      attempts += 1;
      if (!online) throw new Error("network");
      return FormScreen;
    });
    root.render(page(Screen, "Reports"));
    await shows("[role=alert]", "failed");
    expect(caught).toEqual([new Error("network")]);
    expect(attempts).toBe(1);

    // Leaving the screen and coming back (or the boundary's retry) mounts it again.
    online = true;
    root.render(h("p", null, "elsewhere"));
    await shows("p", "elsewhere");
    root.render(page(Screen, "Reports"));
    await shows("h1", "Reports");
    expect(attempts).toBe(2);
    expect(container.querySelector("[role=alert]")).toBeNull();
    expect(caught).toHaveLength(1);
  });

  it("renders the screen on a later mount once preload fetched the code again after the failure", async () => {
    let online = false;
    const Screen = lazyLoaded(async () => {
      if (!online) throw new Error("network");
      return FormScreen;
    });
    root.render(page(Screen, "Debts"));
    await shows("[role=alert]", "failed");
    online = true;
    root.render(h("p", null, "elsewhere"));
    await shows("p", "elsewhere");
    await Screen.preload();
    root.render(page(Screen, "Debts"));
    await shows("h1", "Debts");
    expect(mounts).toBe(1);
  });
});
