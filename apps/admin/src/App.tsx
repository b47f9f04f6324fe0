import { AppFrame, I18nProvider, isLocale, type Locale, RestError } from "@hisob/ui";
import { App as AntApp, Button, Result, Spin } from "antd";
import { type ReactNode, useCallback, useEffect, useMemo, useState } from "react";
import { api } from "./api";
import { i18n, type MessageKey, useT } from "./i18n";
import { AuditPage } from "./pages/AuditPage";
import { CurrenciesPage } from "./pages/CurrenciesPage";
import { GroupsPage } from "./pages/GroupsPage";
import { OidcClientsPage } from "./pages/OidcClientsPage";
import { RolesPage } from "./pages/RolesPage";
import { SigningKeysPage } from "./pages/SigningKeysPage";
import { TenantsPage } from "./pages/TenantsPage";
import { UsersPage } from "./pages/UsersPage";
import { BASE, navigate, usePath } from "./router";
import { type Me, MeContext } from "./session";

type Screen = { path: string; label: MessageKey; permission: string; render: () => ReactNode };
const SCREENS: Screen[] = [
  { path: "/users", label: "nav.users", permission: "users:read:all", render: () => <UsersPage /> },
  { path: "/roles", label: "nav.roles", permission: "roles:read:all", render: () => <RolesPage /> },
  { path: "/groups", label: "nav.groups", permission: "groups:read:all", render: () => <GroupsPage /> },
  {
    path: "/oidc-clients",
    label: "nav.oidcClients",
    permission: "oidc_clients:read:all",
    render: () => <OidcClientsPage />,
  },
  {
    path: "/signing-keys",
    label: "nav.signingKeys",
    permission: "signing_keys:read:all",
    render: () => <SigningKeysPage />,
  },
  { path: "/audit", label: "nav.audit", permission: "audit:read:all", render: () => <AuditPage /> },
  { path: "/tenants", label: "nav.tenants", permission: "tenants:read:all", render: () => <TenantsPage /> },
  {
    path: "/currencies",
    label: "nav.currencies",
    permission: "currencies:select:all",
    render: () => <CurrenciesPage />,
  },
];

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

  const load = useCallback(() => {
    setFailed(null);
    api<Me>("GET", "/account")
      .then(async (account) => {
        if (isLocale(account.uiLanguage)) await i18n.changeLanguage(account.uiLanguage);
        setMe(account);
      })
      .catch((error: unknown) => {
        if (!(error instanceof RestError && error.status === 401)) setFailed(String(error));
      });
  }, []);
  useEffect(() => {
    load();
  }, [load]);

  const visible = useMemo(
    () => SCREENS.filter((screen) => me?.permissions.includes(screen.permission)),
    [me],
  );
  const title = t("app.title");
  useEffect(() => {
    document.title = title;
  }, [title]);

  // The language is the user's own setting: saved with PUT /account, so every device follows.
  const changeLanguage = async (next: Locale) => {
    await i18n.changeLanguage(next);
    await api("PUT", "/account", { uiLanguage: next });
  };
  const signOut = async () => {
    await api("POST", "/logout");
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
  return (
    <MeContext.Provider value={me}>
      <AppFrame
        appName={t("app.short")}
        organization={me.tenant.name}
        user={{ name, email: me.email }}
        nav={visible.map((item) => ({ key: item.path, label: t(item.label), href: `${BASE}${item.path}` }))}
        selectedKey={screen?.path ?? ""}
        onNavigate={(href) => navigate(href.slice(BASE.length))}
        locale={isLocale(i18n.language) ? i18n.language : "en"}
        onLocaleChange={changeLanguage}
        onSignOut={signOut}
      >
        {screen ? screen.render() : <Result status="403" title={t("common.forbidden")} />}
      </AppFrame>
    </MeContext.Provider>
  );
};
