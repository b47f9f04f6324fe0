import { type ComponentType, lazy } from "react";

/*
 * React.lazy, except that code which has already arrived renders at once (decision 0105).
 *
 * A React.lazy component suspends on its first render even when its chunk was fetched long before
 * (its promise settles a microtask later), so its Suspense boundary commits the fallback; and React
 * then holds the content back until 300 ms after that fallback appeared (its fallback throttle).
 * Measured in Chromium, that made the first screen's requests start ~380 ms after the shell's and put
 * the same pause into changes of screen and into the dashboard's and the reports' charts. Here the
 * component is the loaded one whenever the code is there (`ready`, or an earlier `preload`); only code
 * still on its way suspends.
 */
export type LazyLoaded<P extends object> = ComponentType<P> & {
  /** Starts fetching the code (once); resolves to the component. */
  preload: () => Promise<ComponentType<P>>;
};

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
        // A failed fetch (a network blip, a new release) is tried again by the next render.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  const Component = (props: P) => {
    loaded ??= ready();
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  };
  return Object.assign(Component, { preload });
};
