import { describeFailure, formatDate, QueryState, useLocale } from "@hisob/ui";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Button, Popconfirm, Table, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useApi } from "../api-context";

const CONSENTS_KEY = ["consents"] as const;
/** Scopes the consent page words, in its order; any other is shown after them as the application asked for it. */
const SCOPE_ORDER = ["openid", "profile", "email", "offline_access"];
const KNOWN_SCOPES = new Set(SCOPE_ORDER);
const rank = (scope: string) => (KNOWN_SCOPES.has(scope) ? SCOPE_ORDER.indexOf(scope) : SCOPE_ORDER.length);
const inPageOrder = (scopes: readonly string[]) =>
  [...scopes].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

/**
 * The third-party applications the user allowed to use their account (docs/decisions/0036-oidc-consent.md,
 * 0086-setup-idempotent-creates-sign-out-reasons.md): what each may do, in words, since when, and a way
 * to take it back (its tokens stop working; its next sign-in asks again).
 */
export const ConnectedAppsScreen = () => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const consents = useQuery({ queryKey: CONSENTS_KEY, queryFn: () => api.consents.list.query() });
  const revoke = useMutation({
    mutationFn: (clientId: string) => api.consents.revoke.mutate({ clientId }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: CONSENTS_KEY });
      void message.success(t("connectedApps.revoked"));
    },
    onError: (error) => void message.error(describeFailure(error, t).message),
  });
  return (
    <div>
      <Typography.Title level={1}>{t("connectedApps.title")}</Typography.Title>
      <Typography.Paragraph type="secondary">{t("connectedApps.intro")}</Typography.Paragraph>
      <QueryState
        query={consents}
        rows={3}
        isEmpty={(rows) => rows.length === 0}
        empty={t("connectedApps.none")}
      >
        {(rows) => (
          <Table
            rowKey="clientId"
            dataSource={rows}
            pagination={false}
            data-testid="connected-apps"
            columns={[
              {
                title: t("connectedApps.app"),
                dataIndex: "clientName",
                render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
              },
              {
                title: t("connectedApps.mayDo"),
                dataIndex: "scopes",
                render: (scopes: string[]) => (
                  <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                    {inPageOrder(scopes).map((scope) => (
                      <li key={scope}>
                        {KNOWN_SCOPES.has(scope) ? t(`connectedApps.scope.${scope}`) : scope}
                      </li>
                    ))}
                  </ul>
                ),
              },
              {
                title: t("connectedApps.allowedOn"),
                dataIndex: "updatedAt",
                width: 150,
                render: (at: string) => formatDate(at, locale),
              },
              {
                key: "actions",
                width: 130,
                render: (_: unknown, row: { clientId: string; clientName: string }) => (
                  <Popconfirm
                    title={t("connectedApps.confirmRevoke", { app: row.clientName })}
                    description={t("connectedApps.revokeHint")}
                    okText={t("connectedApps.revoke")}
                    okButtonProps={{ danger: true }}
                    cancelText={t("connectedApps.keep")}
                    onConfirm={() => revoke.mutateAsync(row.clientId).catch(() => undefined)}
                  >
                    <Button
                      danger
                      size="small"
                      loading={revoke.isPending && revoke.variables === row.clientId}
                    >
                      {t("connectedApps.revoke")}
                    </Button>
                  </Popconfirm>
                ),
              },
            ]}
          />
        )}
      </QueryState>
    </div>
  );
};
