import { Alert, Button } from "antd";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate } from "react-router-dom";
import { useAllAccounts } from "../api-context";
import { useSetupProgress } from "../setup-progress";

/**
 * On the dashboard: an organization with no money accounts whose setup was never started opens on
 * the setup; one whose setup was left unfinished is offered to continue it.
 */
export const SetupGate = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const accounts = useAllAccounts();
  const { ready, progress } = useSetupProgress();
  if (!ready || !accounts.isSuccess) return null;
  if (progress === null) return accounts.data.total === 0 ? <Navigate to="/setup" replace /> : null;
  if (progress.finished) return null;
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="setup-unfinished"
      title={t("setup.unfinished")}
      description={t("setup.unfinishedHint")}
      action={
        <Button type="primary" onClick={() => navigate("/setup")} data-testid="setup-continue">
          {t("setup.continue")}
        </Button>
      }
    />
  );
};
