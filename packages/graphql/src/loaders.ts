/**
 * Per-request batch loaders (DataLoader instances), created on first use by the module that needs
 * them: `context.loaders.use("finance.accounts", () => new DataLoader(...))`. One request, one set, so
 * nothing is cached across callers; every lookup a request makes in one tick is one query.
 */
export type Loaders = { use<T>(key: string, create: () => T): T };

export const createLoaders = (): Loaders => {
  const made = new Map<string, unknown>();
  return {
    use: <T>(key: string, create: () => T): T => {
      if (!made.has(key)) made.set(key, create());
      return made.get(key) as T;
    },
  };
};
