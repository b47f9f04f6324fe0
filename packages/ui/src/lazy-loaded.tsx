import {
  Component as ClassComponent,
  type ComponentType,
  type LazyExoticComponent,
  lazy,
  type ReactNode,
  useState,
} from "react";

/*
 * React.lazy, except that code which has already arrived renders at once (decision 0105).
 *
 * A React.lazy component suspends on its first render even when its chunk was fetched long before
 * (its promise settles a microtask later), so its Suspense boundary commits the fallback; and React
 * then holds the content back until 300 ms after that fallback appeared (its fallback throttle).
 * Measured in Chromium, that made the first screens' requests start ~380 ms after the shell's and put
 * the same pause into changes of screen and into the dashboard's and the reports' charts. Here a mount
 * renders the loaded component whenever the code is there (`ready`, or an earlier `preload`); only code
 * still on its way suspends.
 *
 * The choice is made once per mount: a screen first shown through React.lazy stays that element type
 * when its parent renders again after the code arrived (a different type would make React unmount and
 * mount it again, losing what was typed in it and running its queries again).
 */
export type LazyLoaded<P extends object> = ComponentType<P> & {
  /** Starts fetching the code (once); resolves to the component. */
  preload: () => Promise<ComponentType<P>>;
};

/**
 * Passes an error on to the boundary above, after calling `caught` once the error has committed: that
 * is, after the render React makes again at once after an error (which mounts the screen afresh).
 */
class PassOn extends ClassComponent<{ children: ReactNode; caught: () => void }, { error?: unknown }> {
  override state: { error?: unknown } = {};
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override componentDidCatch(error: unknown) {
    this.props.caught();
    this.setState(() => {
      throw error;
    });
  }
  override render() {
    return "error" in this.state ? null : this.props.children;
  }
}

export const lazyLoaded = <P extends object>(
  load: () => Promise<ComponentType<P>>,
  /** The component, synchronously, when its code is already here by another way (or undefined). */
  ready: () => ComponentType<P> | undefined = () => undefined,
): LazyLoaded<P> => {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        // A failed fetch (a network blip, a new release) is tried again by the next call.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  // React.lazy calls its loader once and keeps a rejection for good, so after a failed fetch the next
  // mount gets a new one, which fetches again. The new one is made once the error has committed (its
  // boundary shown), not before: the render React makes again at once after an error mounts the screen
  // afresh too, and would fetch again (and again, while the fetch keeps failing).
  let failed = false;
  const newLazy = (): LazyExoticComponent<ComponentType<P>> =>
    lazy(() =>
      preload().then(
        (component) => ({ default: component }),
        (error: unknown) => {
          failed = true;
          throw error;
        },
      ),
    );
  let Lazy = newLazy();
  const renew = () => {
    if (!failed) return;
    failed = false;
    Lazy = newLazy();
  };
  const Component = (props: P) => {
    const [chosen] = useState(() => {
      loaded ??= ready();
      return loaded ? { Loaded: loaded } : { Lazy };
    });
    if (chosen.Loaded) return <chosen.Loaded {...props} />;
    return (
      <PassOn caught={renew}>
        <chosen.Lazy {...props} />
      </PassOn>
    );
  };
  return Object.assign(Component, { preload });
};
