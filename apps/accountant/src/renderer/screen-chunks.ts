/*
 * Where each screen's code comes from (its own chunk). The shell's lazy routes load through these, and
 * the entry starts the chunk of the screen being opened beside the shell's own, rather than after the
 * shell has rendered (docs/decisions/0089-screens-as-fast-as-their-data.md).
 */
export const SCREEN_CHUNKS = {
  dashboard: () => import("./screens/dashboard"),
  accounts: () => import("./screens/accounts"),
  accountDetail: () => import("./screens/account-detail"),
  statementPrint: () => import("./screens/statement-print"),
  documents: () => import("./screens/documents"),
  reports: () => import("./screens/reports"),
  categories: () => import("./screens/categories"),
  transfers: () => import("./screens/transfers"),
  debts: () => import("./screens/debts/debts"),
  debtDetail: () => import("./screens/debts/debt-detail"),
  counterparties: () => import("./screens/counterparties/counterparties"),
  counterpartyDetail: () => import("./screens/counterparties/counterparty-detail"),
  inventory: () => import("./screens/inventory"),
  setup: () => import("./screens/setup/setup"),
  connectedApps: () => import("./screens/connected-apps"),
  closedPeriod: () => import("./screens/closed-period"),
  chartOfAccounts: () => import("./screens/chart-of-accounts"),
  journal: () => import("./screens/journal/journal"),
  journalDetail: () => import("./screens/journal/journal-detail"),
} as const;

export type ScreenName = keyof typeof SCREEN_CHUNKS;
export type ScreenModule<N extends ScreenName> = Awaited<ReturnType<(typeof SCREEN_CHUNKS)[N]>>;

/** The screens whose code has arrived: the shell renders them at once, without suspending (0105). */
const LOADED = new Map<ScreenName, unknown>();

/** Fetches a screen's chunk (once: the browser keeps the module) and remembers that it arrived. */
export const loadScreen = <N extends ScreenName>(name: N): Promise<ScreenModule<N>> =>
  (SCREEN_CHUNKS[name]() as Promise<ScreenModule<N>>).then((module) => {
    LOADED.set(name, module);
    return module;
  });

/** The screen's module if its chunk has arrived, else undefined. */
export const loadedScreen = <N extends ScreenName>(name: N): ScreenModule<N> | undefined =>
  LOADED.get(name) as ScreenModule<N> | undefined;

/** The screen a path under /app opens (as the shell's routes decide), or null for none known. */
export const screenOf = (pathname: string): ScreenName | null => {
  const [section = "", id, extra] = pathname.replace(/^\/app\/?/, "").split("/");
  switch (section) {
    case "":
      return "dashboard";
    case "accounts":
      return id ? (extra === "print" ? "statementPrint" : "accountDetail") : "accounts";
    case "payments":
    case "expenses":
      return "documents";
    case "debts":
      return id ? "debtDetail" : "debts";
    case "counterparties":
      return id ? "counterpartyDetail" : "counterparties";
    case "reports":
    case "categories":
    case "transfers":
    case "inventory":
    case "setup":
      return section;
    case "connected-apps":
      return "connectedApps";
    case "closed-period":
      return "closedPeriod";
    case "chart-of-accounts":
      return "chartOfAccounts";
    case "journal":
      return id ? "journalDetail" : "journal";
    default:
      return null;
  }
};

/** Starts fetching the chunk of the screen at `pathname` (errors surface when the route renders it). */
export const preloadScreen = (pathname: string) => {
  const screen = screenOf(pathname);
  if (screen) loadScreen(screen).catch(() => undefined);
};

/**
 * After the first screen: the other screens' chunks, one at a time while the browser is idle, so a
 * change of screen waits for its data only, not for its code too.
 */
export const preloadScreensWhenIdle = (): (() => void) => {
  let stopped = false;
  const idle = (next: () => void) =>
    typeof window.requestIdleCallback === "function"
      ? window.requestIdleCallback(next, { timeout: 2000 })
      : window.setTimeout(next, 50);
  const queue = Object.keys(SCREEN_CHUNKS) as ScreenName[];
  const step = () => {
    const name = queue.shift();
    if (stopped || !name) return;
    loadScreen(name).then(
      () => idle(step),
      () => idle(step),
    );
  };
  idle(step);
  return () => {
    stopped = true;
  };
};
