import { describeFailure, QueryState } from "@hisob/ui";
import { Alert, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useGlAccounts } from "../chart-of-accounts/queries";
import {
  type ChartTemplate,
  recommendedTemplate,
  TemplateRadio,
  useInstallChart,
} from "../chart-of-accounts/template-choice";
import { templateOf } from "../chart-of-accounts/tree";
import { StepButtons } from "./step-buttons";

/**
 * Step 2: the chart of accounts the books are kept on (docs/decisions/0102-chart-of-accounts-screen.md),
 * before the money accounts' opening balances post to it. Offered: the one already installed, else NAS 21
 * for books in UZS, the IFRS-style chart otherwise. "Next" installs the choice only when it differs from
 * the chart there, so leaving and coming back keeps a chart already chosen (and any edits of it); once
 * anything is posted the chart is kept and the step only says so.
 */
export const ChartStep = (props: {
  base: string | null;
  onBack: () => void;
  onDone: () => void;
  onLater: () => void;
}) => {
  const accounts = useGlAccounts();
  return (
    <QueryState query={accounts}>
      {(chart) => (
        <ChartChoice {...props} installed={templateOf(chart)} posted={chart.some((a) => a.hasEntries)} />
      )}
    </QueryState>
  );
};

const ChartChoice = (props: {
  base: string | null;
  installed: ChartTemplate | null;
  posted: boolean;
  onBack: () => void;
  onDone: () => void;
  onLater: () => void;
}) => {
  const { t } = useTranslation();
  const recommended = recommendedTemplate(props.base);
  const [choice, setChoice] = useState<ChartTemplate>(props.installed ?? recommended);
  const [error, setError] = useState<string | null>(null);
  const install = useInstallChart();
  const next = () => {
    if (props.posted || choice === props.installed) return props.onDone();
    setError(null);
    install.mutate(choice, {
      onSuccess: props.onDone,
      onError: (failure) => setError(describeFailure(failure, t).message),
    });
  };
  return (
    <Space orientation="vertical" style={{ width: "100%", maxWidth: 720 }} data-testid="setup-chart">
      <Typography.Paragraph>{t("chart.setup.intro")}</Typography.Paragraph>
      {props.posted ? <Alert type="info" showIcon title={t("chart.setup.posted")} /> : null}
      <TemplateRadio value={choice} onChange={setChoice} recommended={recommended} disabled={props.posted} />
      {error ? <Alert type="error" showIcon title={error} /> : null}
      <StepButtons busy={install.isPending} onBack={props.onBack} onNext={next} onLater={props.onLater} />
    </Space>
  );
};
