import { AppFrame, I18nProvider, isLocale, type Locale, lazyLoaded, RestError } from "@hisob/ui";
import { App as AntApp, Button, Result, Skeleton, Space, Spin, Tag } from "antd";
import { type ComponentType, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { orgSearch, useActingTenantId } from "./acting";
import { ownApi } from "./api";
import { takeStarted } from "./first-fetch";
import { i18n, type MessageKey, useT } from "./i18n";
import { OrganizationPicker } from "./OrganizationPicker";
import { BASE, navigate, usePath } from "./router";
import { type Me, MeContext } from "./session";

/**
 * A screen's own chunk, fetched when first opened; `preload` starts the download early (the screen
 * the address names is fetched while the user's account is still loading, not after it). Arrived, it
 * renders at once, without suspending (decision 0105).
 */
const lazyScreen = (load: () => Promise<ComponentType>) => {
  const Page = lazyLoaded(load);
  return { Page, preload: Page.preload };
};

/**
 * `inOrganization`: the screen works in the organization the platform administrator picked (decision
 * 0084); the others are the platform's own and are shown only in one's own organization.
 */
type Screen = { path: string; label: MessageKey; permission: string; inOrganization?: true } & ReturnType<
  typeof lazyScreen
>;
const SCREENS: Screen[] = [
  {
    path: "/users",
    label: "nav.users",
    permission: "users:read:all",
    inOrganization: true,
    ...lazyScreen(() => import("./pages/UsersPage").then((m) => m.UsersPage)),
  },
  {
    path: "/roles",
    label: "nav.roles",
    permission: "roles:read:all",
    inOrganization: true,
    ...lazyScreen(() => import("./pages/RolesPage").then((m) => m.RolesPage)),
  },
  {
    path: "/groups",
    label: "nav.groups",
    permission: "groups:read:all",
    inOrganization: true,
    ...lazyScreen(() => import("./pages/GroupsPage").then((m) => m.GroupsPage)),
  },
  {
    path: "/sessions",
    label: "nav.sessions",
    permission: "sessions:read:all",
    ...lazyScreen(() => import("./pages/SessionsPage").then((m) => m.SessionsPage)),
  },
  {
    path: "/oidc-clients",
    label: "nav.oidcClients",
    permission: "oidc_clients:read:all",
    ...lazyScreen(() => import("./pages/OidcClientsPage").then((m) => m.OidcClientsPage)),
  },
  {
    path: "/signing-keys",
    label: "nav.signingKeys",
    permission: "signing_keys:read:all",
    ...lazyScreen(() => import("./pages/SigningKeysPage").then((m) => m.SigningKeysPage)),
  },
  {
    path: "/audit",
    label: "nav.audit",
    permission: "audit:read:all",
    inOrganization: true,
    ...lazyScreen(() => import("./pages/AuditPage").then((m) => m.AuditPage)),
  },
  {
    path: "/tenants",
    label: "nav.tenants",
    permission: "tenants:read:all",
    ...lazyScreen(() => import("./pages/TenantsPage").then((m) => m.TenantsPage)),
  },
  {
    path: "/currencies",
    label: "nav.currencies",
    permission: "currencies:select:all",
    ...lazyScreen(() => import("./pages/CurrenciesPage").then((m) => m.CurrenciesPage)),
  },
];

/** The screen an address names (the first one, users, for /admin/ itself), before permissions are known. */
const screenAt = (path: string) => SCREENS.find((candidate) => path.startsWith(candidate.path)) ?? SCREENS[0];

/**
 * While a screen's chunk loads: a list screen's outline (title, filters, rows) in the content area,
 * so the frame never moves and the screen replaces it in place.
 */
const ScreenLoading = () => {
  const t = useT();
  return (
    <output aria-label={t("common.loading")} aria-busy="true" style={{ display: "block", minHeight: 480 }}>
      <Skeleton active title={{ width: 200 }} paragraph={{ rows: 1, width: 360 }} />
      <Skeleton active title={false} paragraph={{ rows: 10 }} />
    </output>
  );
};

/** The admin: the shared i18n setup (antd's and dayjs's locale with it) and antd's App around the screens. */
export const App = () => (
  <I18nProvider i18n={i18n}>
    <AntApp>
      <Screens />
    </AntApp>
  </I18nProvider>
);

const Screens = () => {
  const t = useT();
  const [me, setMe] = useState<Me | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const path = usePath();
  const org = useActingTenantId();

  const load = useCallback(() => {
    setFailed(null);
    // The entry started it already (first-fetch.ts); a retry asks again.
    takeStarted("/account", () => ownApi<Me>("GET", "/account"))
      .then(async (account) => {
        if (isLocale(account.uiLanguage)) await i18n.changeLanguage(account.uiLanguage);
        setMe(account);
      })
      .catch((error: unknown) => {
        if (!(error instanceof RestError && error.status === 401)) setFailed(String(error));
      });
  }, []);
  useEffect(() => {
    // The screen's code comes down beside the account, not after it.
    void screenAt(window.location.pathname.slice(BASE.length))?.preload();
    load();
  }, [load]);

  // Acting in another organization (`?org=`, platform administrators only): its screens alone.
  const acting =
    me && org && org !== me.tenant.id && me.permissions.includes("tenants:read:all") ? org : null;
  const visible = useMemo(
    () =>
      SCREENS.filter(
        (screen) => me?.permissions.includes(screen.permission) && (!acting || screen.inOrganization),
      ),
    [me, acting],
  );
  const title = t("app.title");
  useEffect(() => {
    document.title = title;
  }, [title]);

  // The language is the user's own setting: saved with PUT /account, so every device follows.
  const changeLanguage = async (next: Locale) => {
    await i18n.changeLanguage(next);
    await ownApi("PUT", "/account", { uiLanguage: next });
  };
  const signOut = async () => {
    await ownApi("POST", "/logout");
    window.location.assign(`/login?next=${encodeURIComponent(`${BASE}/`)}`);
  };

  if (failed) {
    return (
      <Result
        status="error"
        title={t("common.error")}
        subTitle={failed}
        extra={<Button onClick={load}>{t("common.retry")}</Button>}
      />
    );
  }
  if (!me) return <Spin fullscreen description={t("common.loading")} />;

  const screen = visible.find((candidate) => path.startsWith(candidate.path)) ?? visible[0];
  const name = `${me.firstName} ${me.lastName}`.trim() || me.email;
  const search = orgSearch(acting);
  // Another organization: its own screen (users where the platform's own screen has none), in it.
  const switchOrganization = (tenantId: string) => {
    const next = tenantId === me.tenant.id ? null : tenantId;
    const stays = screen && (!next || screen.inOrganization) ? screen.path : "/users";
    navigate(`${stays}${orgSearch(next)}`);
  };
  const organization = me.permissions.includes("tenants:read:all") ? (
    <Space size={8}>
      <OrganizationPicker own={me.tenant} value={acting ?? me.tenant.id} onChange={switchOrganization} />
      {acting && <Tag color="purple">{t("header.acting")}</Tag>}
    </Space>
  ) : (
    me.tenant.name
  );
  return (
    <MeContext.Provider value={me}>
      <AppFrame
        appName={t("app.short")}
        organization={organization}
        user={{ name, email: me.email }}
        nav={visible.map((item) => ({
          key: item.path,
          label: t(item.label),
          href: `${BASE}${item.path}${search}`,
        }))}
        selectedKey={screen?.path ?? ""}
        onNavigate={(href) => navigate(href.slice(BASE.length))}
        locale={isLocale(i18n.language) ? i18n.language : "en"}
        onLocaleChange={changeLanguage}
        onSignOut={signOut}
      >
        {screen ? (
          <Suspense fallback={<ScreenLoading />}>
            {/* A new organization is a new screen: nothing of the last one's state carries over. */}
            <screen.Page key={acting ?? "own"} />
          </Suspense>
        ) : (
          <Result status="403" title={t("common.forbidden")} />
        )}
      </AppFrame>
    </MeContext.Provider>
  );
};
