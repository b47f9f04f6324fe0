import {
  App as AntApp,
  Button,
  ConfigProvider,
  Layout,
  Menu,
  Result,
  Select,
  Space,
  Spin,
  Typography,
} from "antd";
import enUS from "antd/locale/en_US";
import ruRU from "antd/locale/ru_RU";
import uzUZ from "antd/locale/uz_UZ";
import { type ReactNode, useCallback, useEffect, useMemo, useState } from "react";
import { ApiError, api } from "./api";
import {
  LANGUAGES,
  type Language,
  LanguageContext,
  type MessageKey,
  setCurrentLanguage,
  translate,
} from "./i18n";
import { AuditPage } from "./pages/AuditPage";
import { CurrenciesPage } from "./pages/CurrenciesPage";
import { GroupsPage } from "./pages/GroupsPage";
import { OidcClientsPage } from "./pages/OidcClientsPage";
import { RolesPage } from "./pages/RolesPage";
import { SigningKeysPage } from "./pages/SigningKeysPage";
import { TenantsPage } from "./pages/TenantsPage";
import { UsersPage } from "./pages/UsersPage";
import { navigate, usePath } from "./router";
import { type Me, MeContext } from "./session";

const ANTD_LOCALES = { en: enUS, ru: ruRU, uz: uzUZ };

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

export const App = () => {
  const [me, setMe] = useState<Me | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [language, setLanguage] = useState<Language>("en");
  const path = usePath();

  const load = useCallback(() => {
    setFailed(null);
    api<Me>("GET", "/account")
      .then((account) => {
        setCurrentLanguage(account.uiLanguage);
        setLanguage(account.uiLanguage);
        setMe(account);
      })
      .catch((error: unknown) => {
        if (!(error instanceof ApiError && error.status === 401)) setFailed(String(error));
      });
  }, []);
  useEffect(() => {
    load();
  }, [load]);

  const t = (key: MessageKey) => translate(language, key);
  const visible = useMemo(
    () => SCREENS.filter((screen) => me?.permissions.includes(screen.permission)),
    [me],
  );
  useEffect(() => {
    document.title = translate(language, "app.title");
  }, [language]);

  // The language is the user's own setting: saved with PUT /account, so every device follows.
  const changeLanguage = async (next: Language) => {
    setCurrentLanguage(next);
    setLanguage(next);
    await api("PUT", "/account", { uiLanguage: next });
  };
  const signOut = async () => {
    await api("POST", "/logout");
    window.location.assign(`/login?next=${encodeURIComponent("/admin/")}`);
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
  if (!me) return <Spin fullscreen tip={t("common.loading")} />;

  const screen = visible.find((candidate) => path.startsWith(candidate.path)) ?? visible[0];
  return (
    <ConfigProvider
      locale={ANTD_LOCALES[language]}
      theme={{ token: { colorPrimary: "#0f6e56", borderRadius: 6 } }}
    >
      <AntApp>
        <LanguageContext.Provider value={language}>
          <MeContext.Provider value={me}>
            <Layout style={{ minHeight: "100vh" }}>
              <Layout.Sider width={230} theme="light" style={{ borderRight: "1px solid #eee" }}>
                <Typography.Title level={5} style={{ padding: "18px 20px", margin: 0 }}>
                  {t("app.title")}
                </Typography.Title>
                <Menu
                  mode="inline"
                  selectedKeys={screen ? [screen.path] : []}
                  items={visible.map((item) => ({ key: item.path, label: t(item.label) }))}
                  onClick={({ key }) => navigate(key)}
                />
              </Layout.Sider>
              <Layout>
                <Layout.Header
                  style={{
                    background: "#fff",
                    borderBottom: "1px solid #eee",
                    display: "flex",
                    justifyContent: "flex-end",
                    padding: "0 24px",
                  }}
                >
                  <Space size="middle">
                    <Typography.Text type="secondary">
                      {me.email} · {me.tenant.name}
                    </Typography.Text>
                    <Select<Language>
                      aria-label={t("header.language")}
                      value={language}
                      options={LANGUAGES}
                      onChange={changeLanguage}
                      style={{ width: 130 }}
                    />
                    <Button onClick={signOut}>{t("header.signOut")}</Button>
                  </Space>
                </Layout.Header>
                <Layout.Content style={{ padding: 24 }}>
                  {screen ? screen.render() : <Result status="403" title={t("common.forbidden")} />}
                </Layout.Content>
              </Layout>
            </Layout>
          </MeContext.Provider>
        </LanguageContext.Provider>
      </AntApp>
    </ConfigProvider>
  );
};
