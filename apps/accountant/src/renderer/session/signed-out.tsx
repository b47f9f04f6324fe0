import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";
import type { SignedOutReason } from "./live-session";

/** Shown when the app signed out by itself: why, in the user's language, and the way back in. */
export const SignedOut = ({ reason, onSignIn }: { reason: SignedOutReason; onSignIn: () => void }) => {
  const { t } = useTranslation();
  return (
    <Result
      status="info"
      title={t("session.signedOut")}
      subTitle={<span data-testid="signed-out-reason">{t(`session.reason.${reason}`)}</span>}
      extra={
        <Button type="primary" onClick={onSignIn}>
          {t("ui:signInAgain")}
        </Button>
      }
    />
  );
};
