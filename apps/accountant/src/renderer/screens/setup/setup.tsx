import { Button, Result, Skeleton, Steps, Typography } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { useSetupProgress } from "../../setup-progress";
import { AccountsStep } from "./accounts-step";
import { CategoriesStep } from "./categories-step";
import { ChartStep } from "./chart-step";
import { CurrenciesStep } from "./currencies-step";

/**
 * The first run: currencies, the chart of accounts, money accounts with opening balances, a first set
 * of categories, each
 * made through the server's operations. Every step can be left ("Finish later"): the dashboard then
 * offers to continue at the same step — in any browser, the progress and the base currency being the
 * organization's settings on the server.
 */
export const SetupScreen = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { ready, progress, save } = useSetupProgress();
  const step = progress?.step ?? 0;
  // Opening the setup starts it: from now on the dashboard knows it is under way.
  useEffect(() => {
    if (ready && progress === null) void save({ step: 0 });
  }, [ready, progress, save]);
  const later = () => navigate("/");
  const go = (next: number) => void save({ step: next });

  return (
    <div>
      <Typography.Title level={1}>{t("setup.title")}</Typography.Title>
      <Typography.Paragraph type="secondary">{t("setup.intro")}</Typography.Paragraph>
      <Steps
        current={step}
        style={{ margin: "16px 0 24px" }}
        items={[
          { title: t("setup.stepCurrencies") },
          { title: t("chart.setup.step") },
          { title: t("setup.stepAccounts") },
          { title: t("setup.stepCategories") },
          { title: t("setup.stepDone") },
        ]}
      />
      {!ready ? (
        <Skeleton active />
      ) : step === 0 ? (
        <CurrenciesStep
          base={progress?.base ?? null}
          onDone={(base) => void save({ step: 1, base })}
          onLater={later}
        />
      ) : step === 1 ? (
        <ChartStep base={progress?.base ?? null} onBack={() => go(0)} onDone={() => go(2)} onLater={later} />
      ) : step === 2 ? (
        <AccountsStep
          base={progress?.base ?? null}
          onBack={() => go(1)}
          onDone={() => go(3)}
          onLater={later}
        />
      ) : step === 3 ? (
        <CategoriesStep onBack={() => go(2)} onDone={() => go(4)} onLater={later} />
      ) : (
        <Result
          status="success"
          title={t("setup.doneTitle")}
          subTitle={t("setup.doneHint")}
          extra={
            <Button
              type="primary"
              data-testid="setup-finish"
              onClick={() => {
                void save({ finished: true });
                navigate("/");
              }}
            >
              {t("setup.finish")}
            </Button>
          }
        />
      )}
    </div>
  );
};
