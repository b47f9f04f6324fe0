import {
  AppFrame,
  createApiClient,
  createI18n,
  describeFailure,
  I18nProvider,
  isLocale,
  type Locale,
  lazyLoaded,
  useLocale,
} from "@hisob/ui";
import { QueryClientProvider, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Button, Result, Skeleton, Spin } from "antd";
import type { i18n as I18n } from "i18next";
import { type ComponentType, Suspense, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { BrowserRouter, Navigate, Route, Routes, useLocation, useNavigate } from "react-router-dom";
import type { HisobBridge, SessionInfo } from "../shared/bridge";
import { ApiContext, HostContext, KEYS, useApi } from "./api-context";
import { setFormLocale } from "./form-locale";
import { APP_MESSAGES } from "./locales";
import { QUERIES } from "./queries";
import {
  loadedScreen,
  loadScreen,
  preloadScreen,
  preloadScreensWhenIdle,
  type ScreenModule,
  type ScreenName,
} from "./screen-chunks";
import {
  type AppData,
  browserAppData,
  createQueryClient,
  forgetAppData,
  prefetchScreen,
} from "./screen-data";
import type { SignedOutReason } from "./session/live-session";
import { SignedOut } from "./session/signed-out";
import { useLiveSession } from "./session/use-live-session";

// Each screen is its own chunk, fetched when first opened (the entry starts the one being opened beside
// the shell: screen-chunks.ts); one that has arrived renders at once, without suspending (0105).
const screen = <N extends ScreenName, P extends object>(
  name: N,
  pick: (module: ScreenModule<N>) => ComponentType<P>,
) =>
  lazyLoaded(
    () => loadScreen(name).then(pick),
    () => {
      const module = loadedScreen(name);
      return module && pick(module);
    },
  );

const DashboardScreen = screen("dashboard", (m) => m.DashboardScreen);
const AccountsScreen = screen("accounts", (m) => m.AccountsScreen);
const AccountDetailScreen = screen("accountDetail", (m) => m.AccountDetailScreen);
const StatementPrintScreen = screen("statementPrint", (m) => m.StatementPrintScreen);
const DocumentsScreen = screen("documents", (m) => m.DocumentsScreen);
const ReportsSection = screen("reports", (m) => m.ReportsSection);
const CategoriesScreen = screen("categories", (m) => m.CategoriesScreen);
const TransfersScreen = screen("transfers", (m) => m.TransfersScreen);
const DebtsScreen = screen("debts", (m) => m.DebtsScreen);
const DebtDetailScreen = screen("debtDetail", (m) => m.DebtDetailScreen);
const CounterpartiesScreen = screen("counterparties", (m) => m.CounterpartiesScreen);
const CounterpartyDetailScreen = screen("counterpartyDetail", (m) => m.CounterpartyDetailScreen);
const InventoryScreen = screen("inventory", (m) => m.InventoryScreen);
const SetupScreen = screen("setup", (m) => m.SetupScreen);
const ClosedPeriodScreen = screen("closedPeriod", (m) => m.ClosedPeriodScreen);
const ChartOfAccountsScreen = screen("chartOfAccounts", (m) => m.ChartOfAccountsScreen);
const JournalScreen = screen("journal", (m) => m.JournalScreen);
const JournalDetailScreen = screen("journalDetail", (m) => m.JournalDetailScreen);
const ConnectedAppsScreen = screen("connectedApps", (m) => m.ConnectedAppsScreen);

/** Client-side checks (the server's schemas) speak the user's language too (see form-locale.ts). */
const useFormLocale = (locale: Locale) => {
  useEffect(() => setFormLocale(locale), [locale]);
};

type Start =
  | { state: "starting" }
  | { state: "signed-in"; session: SessionInfo }
  | { state: "signed-out"; reason: SignedOutReason }
  | { state: "failed"; message: string };

/** Signs in (or resumes the session) through the bridge, then shows the app. */
export const Root = ({ bridge, i18n }: { bridge: HisobBridge; i18n: I18n }) => {
  const [start, setStart] = useState<Start>({ state: "starting" });
  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const session = (await bridge.restoreSession()) ?? (await bridge.signIn());
        if (!cancelled && session) setStart({ state: "signed-in", session });
      } catch (error) {
        if (!cancelled)
          setStart({ state: "failed", message: error instanceof Error ? error.message : String(error) });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [bridge]);

  return (
    <I18nProvider i18n={i18n}>
      <AntApp>
        {start.state === "signed-in" ? (
          <SignedIn
            bridge={bridge}
            session={start.session}
            onSignedOut={(reason) => {
              // The tab's kept tokens are dead now: a reload must not resume them (0089); nor is
              // anything read with them kept for the next session.
              if (bridge.host === "browser") {
                void bridge.forgetSession();
                forgetAppData();
              }
              setStart({ state: "signed-out", reason });
            }}
          />
        ) : start.state === "signed-out" ? (
          <SignedOut
            reason={start.reason}
            onSignIn={() =>
              void bridge.signIn().then((session) => session && setStart({ state: "signed-in", session }))
            }
          />
        ) : start.state === "failed" ? (
          <SignInFailed message={start.message} onRetry={() => void bridge.signIn()} />
        ) : (
          <Starting />
        )}
      </AntApp>
    </I18nProvider>
  );
};

const Starting = () => {
  const { t } = useTranslation();
  return (
    <output style={{ display: "grid", placeItems: "center", minHeight: "100vh" }}>
      <Spin size="large" description={t("signIn.title")} />
    </output>
  );
};

/** While a screen's chunk arrives: a skeleton of about a screen's size (no layout jump). */
const ScreenLoading = () => {
  const { t } = useTranslation();
  return (
    <output aria-label={t("ui:loading")} style={{ display: "block" }}>
      <Skeleton active paragraph={{ rows: 10 }} />
    </output>
  );
};

const SignInFailed = ({ message, onRetry }: { message: string; onRetry: () => void }) => {
  const { t } = useTranslation();
  return (
    <Result
      status="warning"
      title={t("signIn.failed")}
      subTitle={message}
      extra={
        <Button type="primary" onClick={onRetry}>
          {t("ui:signInAgain")}
        </Button>
      }
    />
  );
};

const SignedIn = ({
  bridge,
  session,
  onSignedOut,
}: {
  bridge: HisobBridge;
  session: SessionInfo;
  onSignedOut: (reason: SignedOutReason) => void;
}) => {
  // In a browser, the page's one query and API client (screen-data.ts), forgotten at sign-out.
  const [browser] = useState<AppData | null>(() =>
    bridge.host === "browser" ? browserAppData(bridge) : null,
  );
  const [queryClient] = useState(() => browser?.client ?? createQueryClient());
  // In a browser the API is this page's own origin: known at once, so the first screen's requests
  // need not wait for another render (0089). Electron asks its host.
  const [serverUrl, setServerUrl] = useState<string | null>(bridge.host === "browser" ? "" : null);
  useEffect(() => {
    if (bridge.host === "browser") return;
    void bridge.serverUrl().then(setServerUrl);
  }, [bridge]);
  const api = useMemo(
    () =>
      browser?.api ??
      (serverUrl === null
        ? null
        : createApiClient({
            baseUrl: serverUrl,
            accessToken: () => bridge.accessToken(),
          })),
    [browser, bridge, serverUrl],
  );
  const host = useMemo(() => (serverUrl === null ? null : { bridge, serverUrl }), [bridge, serverUrl]);
  useLiveSession(bridge, session, serverUrl, onSignedOut);
  if (!api || !host) return <Starting />;
  return (
    <QueryClientProvider client={queryClient}>
      <ApiContext.Provider value={api}>
        <HostContext.Provider value={host}>
          <BrowserRouter basename="/app">
            <Shell bridge={bridge} session={session} />
          </BrowserRouter>
        </HostContext.Provider>
      </ApiContext.Provider>
    </QueryClientProvider>
  );
};

const NAV = [
  { key: "dashboard", href: "/" },
  { key: "accounts", href: "/accounts" },
  { key: "payments", href: "/payments" },
  { key: "expenses", href: "/expenses" },
  { key: "transfers", href: "/transfers" },
  { key: "debts", href: "/debts" },
  { key: "counterparties", href: "/counterparties" },
  { key: "reports", href: "/reports", label: "reports.nav" },
  { key: "journal", href: "/journal" },
  { key: "categories", href: "/categories" },
  { key: "chart-of-accounts", href: "/chart-of-accounts", label: "chart.nav" },
  { key: "inventory", href: "/inventory" },
] as const;

const Shell = ({ bridge, session }: { bridge: HisobBridge; session: SessionInfo }) => {
  const { t, i18n } = useTranslation();
  const locale = useLocale();
  useFormLocale(locale);
  const api = useApi();
  const navigate = useNavigate();
  const location = useLocation();
  const me = useQuery(QUERIES.me(api));
  // The other screens' code, fetched while the browser is idle after the first screen (0089).
  useEffect(() => preloadScreensWhenIdle(), []);

  // The user's saved language wins over the browser's, once, when it is first known.
  const saved = me.data?.uiLanguage;
  const applied = useRef(false);
  useEffect(() => {
    if (applied.current || !isLocale(saved)) return;
    applied.current = true;
    if (saved !== i18n.language) void i18n.changeLanguage(saved);
  }, [saved, i18n]);

  const queryClient = useQueryClient();
  // A change of screen starts the next screen's code and data together, before it renders (0099).
  const open = (path: string) => {
    preloadScreen(`/app${path}`);
    prefetchScreen({ client: queryClient, api }, `/app${path}`);
    navigate(path);
  };
  const saveLanguage = useMutation({
    mutationFn: (uiLanguage: Locale) => api.session.update.mutate({ uiLanguage }),
    onSuccess: (account) => queryClient.setQueryData(KEYS.me, account),
  });
  const { message } = AntApp.useApp();
  const changeLocale = (next: Locale) => {
    void i18n.changeLanguage(next);
    saveLanguage.mutate(next, {
      onError: (error) => void message.error(describeFailure(error, t).message),
    });
  };

  const section = location.pathname.split("/")[1] || "dashboard";
  const user = me.data
    ? { name: `${me.data.firstName} ${me.data.lastName}`.trim() || me.data.email, email: me.data.email }
    : { name: session.user.name ?? session.user.email ?? "", email: session.user.email ?? "" };
  return (
    <AppFrame
      appName={t("appName")}
      organization={me.data?.tenant.name ?? ""}
      user={user}
      nav={NAV.map((item) => ({
        key: item.key,
        href: `/app${item.href}`,
        label: t("label" in item ? item.label : `nav.${item.key}`),
      }))}
      selectedKey={section}
      onNavigate={(href) => open(href.slice("/app".length) || "/")}
      locale={locale}
      onLocaleChange={changeLocale}
      onSignOut={() => void bridge.signOut()}
      userMenu={[
        {
          key: "closed-period",
          label: t("closedPeriod.title"),
          onClick: () => navigate("/closed-period"),
        },
        {
          key: "connected-apps",
          label: t("connectedApps.title"),
          onClick: () => open("/connected-apps"),
        },
      ]}
    >
      <Suspense fallback={<ScreenLoading />}>
        <Routes>
          <Route path="/" element={<DashboardScreen />} />
          <Route path="/accounts" element={<AccountsScreen />} />
          <Route path="/accounts/:id" element={<AccountDetailScreen />} />
          <Route path="/accounts/:id/print" element={<StatementPrintScreen />} />
          <Route path="/payments" element={<DocumentsScreen key="payments" kind="payments" />} />
          <Route path="/expenses" element={<DocumentsScreen key="expenses" kind="expenses" />} />
          <Route path="/transfers" element={<TransfersScreen />} />
          <Route path="/debts" element={<DebtsScreen />} />
          <Route path="/debts/:id" element={<DebtDetailScreen />} />
          <Route path="/counterparties" element={<CounterpartiesScreen />} />
          <Route path="/counterparties/:id" element={<CounterpartyDetailScreen />} />
          <Route path="/reports/*" element={<ReportsSection />} />
          <Route path="/categories" element={<CategoriesScreen />} />
          <Route path="/inventory" element={<InventoryScreen />} />
          <Route path="/setup" element={<SetupScreen />} />
          <Route path="/connected-apps" element={<ConnectedAppsScreen />} />
          <Route path="/closed-period" element={<ClosedPeriodScreen />} />
          <Route path="/chart-of-accounts" element={<ChartOfAccountsScreen />} />
          <Route path="/journal" element={<JournalScreen />} />
          <Route path="/journal/:id" element={<JournalDetailScreen />} />
          <Route path="*" element={<Navigate to="/" replace />} />
        </Routes>
      </Suspense>
    </AppFrame>
  );
};

export const createAppI18n = (locale: Locale) => createI18n(APP_MESSAGES, locale);
