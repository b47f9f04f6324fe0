import { Avatar, Button, Dropdown, Layout, Select, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LOCALE_NAMES, LOCALES } from "./i18n";
import type { Locale } from "./money";

export type NavItem = { key: string; label: string; href: string };

type Props = {
  appName: string;
  /** The organization's name, or a control to choose one (the platform administrator's picker). */
  organization: ReactNode;
  user: { name: string; email: string };
  nav: readonly NavItem[];
  selectedKey: string;
  onNavigate: (href: string) => void;
  locale: Locale;
  onLocaleChange: (locale: Locale) => void;
  onSignOut: () => void;
  /** The app's own entries of the user menu (e.g. the connected applications), above "Sign out". */
  userMenu?: readonly { key: string; label: string; onClick: () => void }[];
  children: ReactNode;
};

/**
 * The frame of both apps: navigation on the left, the organization, language switch and user menu
 * on top, the page below. Fixed sizes, so nothing moves when a page's data arrives.
 */
export const AppFrame = (props: Props) => {
  const { t } = useTranslation();
  const initials = props.user.name
    .split(/\s+/)
    .map((part) => part[0] ?? "")
    .join("")
    .slice(0, 2)
    .toUpperCase();
  return (
    <Layout style={{ minHeight: "100vh" }}>
      <Layout.Sider width={220} theme="light" style={{ borderRight: "1px solid #f0f0f0" }}>
        <div style={{ padding: "16px 20px", fontWeight: 700, fontSize: 20, color: "#0f6e5c" }}>
          {props.appName}
        </div>
        <nav aria-label={t("ui:navigation")}>
          <ul style={{ listStyle: "none", margin: 0, padding: "0 8px" }}>
            {props.nav.map((item) => {
              const current = item.key === props.selectedKey;
              return (
                <li key={item.key} style={{ marginBottom: 4 }}>
                  <a
                    href={item.href}
                    aria-current={current ? "page" : undefined}
                    className="hisob-nav-link"
                    style={{
                      display: "block",
                      padding: "10px 16px",
                      borderRadius: 6,
                      color: current ? "#0f6e5c" : "rgba(0, 0, 0, 0.88)",
                      background: current ? "#e3f1ee" : undefined,
                      fontWeight: current ? 600 : 400,
                      textDecoration: "none",
                    }}
                    onClick={(event) => {
                      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                      event.preventDefault();
                      props.onNavigate(item.href);
                    }}
                  >
                    {item.label}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            background: "#fff",
            borderBottom: "1px solid #f0f0f0",
            display: "flex",
            alignItems: "center",
            gap: 16,
            paddingInline: 24,
          }}
        >
          <Typography.Text strong style={{ flex: 1, fontSize: 16 }} data-testid="organization">
            {props.organization}
          </Typography.Text>
          <Select
            aria-label={t("ui:language")}
            value={props.locale}
            onChange={props.onLocaleChange}
            showSearch={{ optionFilterProp: "label" }}
            style={{ width: 140 }}
            options={LOCALES.map((value) => ({ value, label: LOCALE_NAMES[value] }))}
            data-testid="language-switch"
          />
          <Dropdown
            trigger={["click"]}
            menu={{
              items: [
                { key: "who", label: props.user.email, disabled: true },
                { type: "divider" },
                ...(props.userMenu ?? []).map((item) => ({
                  key: item.key,
                  label: item.label,
                  onClick: item.onClick,
                })),
                { key: "sign-out", label: t("ui:signOut"), onClick: props.onSignOut },
              ],
            }}
          >
            <Button type="text" aria-label={t("ui:userMenu")} style={{ height: 40 }}>
              <Avatar size="small" style={{ background: "#0f6e5c" }}>
                {initials}
              </Avatar>
              <span style={{ marginInlineStart: 8 }}>{props.user.name}</span>
            </Button>
          </Dropdown>
        </Layout.Header>
        <Layout.Content style={{ padding: 24, maxWidth: 1400, width: "100%" }}>
          {props.children}
        </Layout.Content>
      </Layout>
    </Layout>
  );
};
