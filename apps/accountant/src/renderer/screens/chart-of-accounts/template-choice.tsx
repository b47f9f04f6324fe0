import { GL_CHART_TEMPLATES, type TGlAccountDto } from "@hisob/finance/schema";
import { describeFailure } from "@hisob/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, App as AntApp, Button, Card, Popconfirm, Radio, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api-context";
import { useBaseCurrency } from "../../setup-progress";
import { GL_ACCOUNTS_KEY, GL_MAPPINGS_KEY } from "./queries";
import { templateOf } from "./tree";

export type ChartTemplate = (typeof GL_CHART_TEMPLATES)[number];

/**
 * The template offered first (docs/decisions/0102-chart-of-accounts-screen.md): NAS 21 for books kept
 * in so'm (or whose base currency is not chosen yet) — the chart Uzbekistan's law asks of its firms,
 * whatever language the accountant reads —, the IFRS-style chart for books kept in another currency.
 */
export const recommendedTemplate = (base: string | null): ChartTemplate =>
  base === null || base === "UZS" ? "nas21" : "ifrs";

/** The two templates as radio buttons, the recommended one marked. */
export const TemplateRadio = (props: {
  value: ChartTemplate;
  onChange: (template: ChartTemplate) => void;
  recommended: ChartTemplate;
  disabled?: boolean;
}) => {
  const { t } = useTranslation();
  return (
    <Radio.Group
      value={props.value}
      disabled={props.disabled}
      onChange={(event) => props.onChange(event.target.value as ChartTemplate)}
      aria-label={t("chart.templateTitle")}
    >
      <Space orientation="vertical">
        {GL_CHART_TEMPLATES.map((template) => (
          <Radio key={template} value={template} data-testid={`template-${template}`}>
            {t(`chart.templates.${template}`)}
            {template === props.recommended ? (
              <Typography.Text type="secondary"> — {t("chart.setup.recommended")}</Typography.Text>
            ) : null}
          </Radio>
        ))}
      </Space>
    </Radio.Group>
  );
};

/** Installs a template (the server refuses once anything is posted) and refreshes the chart's queries. */
export const useInstallChart = () => {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (template: ChartTemplate) => api.generalLedger.installChart.mutate({ template }),
    onSuccess: async (chart) => {
      queryClient.setQueryData(GL_ACCOUNTS_KEY, chart);
      await queryClient.invalidateQueries({ queryKey: GL_MAPPINGS_KEY });
    },
  });
};

/** On the chart's screen while nothing is posted: start (or start again) from a template. */
export const TemplateChoice = (props: { accounts: readonly TGlAccountDto[] }) => {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const recommended = recommendedTemplate(useBaseCurrency());
  const installed = templateOf(props.accounts);
  const [choice, setChoice] = useState<ChartTemplate>(installed ?? recommended);
  const [error, setError] = useState<string | null>(null);
  const install = useInstallChart();
  const run = () =>
    install.mutate(choice, {
      onSuccess: () => {
        setError(null);
        void message.success(t("chart.templateInstalled"));
      },
      onError: (failure) => setError(describeFailure(failure, t).message),
    });
  const button = (
    <Button
      type="primary"
      data-testid="template-install"
      loading={install.isPending}
      onClick={props.accounts.length === 0 ? run : undefined}
    >
      {t("chart.templateInstall")}
    </Button>
  );
  return (
    <Card size="small" title={t("chart.templateTitle")} data-testid="template-choice">
      <Space orientation="vertical" style={{ width: "100%" }}>
        <Typography.Text type="secondary">{t("chart.templateHint")}</Typography.Text>
        <TemplateRadio value={choice} onChange={setChoice} recommended={recommended} />
        {props.accounts.length === 0 ? (
          button
        ) : (
          <Popconfirm title={t("chart.templateConfirm")} onConfirm={run}>
            {button}
          </Popconfirm>
        )}
        {error ? <Alert type="error" showIcon title={error} /> : null}
      </Space>
    </Card>
  );
};
