import type { TGlAccountDto, TGlMappingDto } from "@hisob/finance/schema";
import { describeFailure, QueryState, useLocale } from "@hisob/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Select, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api-context";
import { GL_MAPPINGS_KEY, useGlAccounts, useGlMappings } from "./queries";
import { Refusal } from "./refusal";
import { mappingChoices, nameOf } from "./tree";

/** "" in the picker: back to the chart's default (the server's null). */
const DEFAULT = "";

/**
 * The mappings (docs/decisions/0102-chart-of-accounts-screen.md): each money account and category with
 * the account it posts to, changed in place to a leaf the server accepts for it (mappingChoices); a
 * refusal is shown as the server words it. Later postings use the new account.
 */
export const MappingsTab = () => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const mappings = useGlMappings();
  const accounts = useGlAccounts();
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (change: { row: TGlMappingDto; glAccountId: string | null }) =>
      api.generalLedger.setMapping.mutate({
        kind: change.row.kind,
        id: change.row.id,
        glAccountId: change.glAccountId,
      }),
    onSuccess: async () => {
      setError(null);
      void message.success(t("chart.mappingSaved"));
      await queryClient.invalidateQueries({ queryKey: GL_MAPPINGS_KEY });
    },
    onError: (failure) => setError(describeFailure(failure, t).message),
  });
  const label = (account: TGlAccountDto | undefined) =>
    account ? `${account.code} ${nameOf(account, locale)}` : "";

  return (
    <QueryState query={mappings}>
      {(rows) => {
        const chart = accounts.data ?? [];
        const byId = new Map(chart.map((account) => [account.id, account]));
        return (
          <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
            <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
              {t("chart.mappingsIntro")}
            </Typography.Paragraph>
            <Refusal message={error} onClose={() => setError(null)} testId="mapping-error" />
            <Table<TGlMappingDto>
              rowKey="id"
              size="small"
              dataSource={rows}
              pagination={false}
              locale={{ emptyText: t("chart.noMappings") }}
              onRow={(row) => ({ "data-testid": `mapping-${row.name}` }) as React.HTMLAttributes<HTMLElement>}
              columns={[
                {
                  key: "kind",
                  title: t("chart.kind"),
                  width: 190,
                  render: (_: unknown, row: TGlMappingDto) => <Tag>{t(`chart.kinds.${row.kind}`)}</Tag>,
                },
                { key: "name", title: t("chart.name"), dataIndex: "name" },
                { key: "currency", title: t("chart.currency"), dataIndex: "currency", width: 90 },
                {
                  key: "postsTo",
                  title: t("chart.postsTo"),
                  width: 420,
                  render: (_: unknown, row: TGlMappingDto) => {
                    const fallback = row.defaultGlAccountId
                      ? t("chart.byDefault", { account: label(byId.get(row.defaultGlAccountId)) })
                      : t("chart.noChart");
                    return (
                      <Select
                        aria-label={`${t("chart.postsTo")}: ${row.name}`}
                        data-testid="mapping-select"
                        value={row.glAccountId ?? DEFAULT}
                        disabled={chart.length === 0}
                        loading={save.isPending && save.variables?.row.id === row.id}
                        showSearch
                        optionFilterProp="label"
                        onChange={(value: string) =>
                          save.mutate({ row, glAccountId: value === DEFAULT ? null : value })
                        }
                        options={[
                          {
                            value: DEFAULT,
                            label: fallback,
                          },
                          ...mappingChoices(chart, row).map((account) => ({
                            value: account.id,
                            label: label(account),
                          })),
                        ]}
                        style={{ width: "100%" }}
                      />
                    );
                  },
                },
              ]}
            />
          </Space>
        );
      }}
    </QueryState>
  );
};
