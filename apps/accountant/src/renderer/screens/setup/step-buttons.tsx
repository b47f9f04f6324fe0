import { Button, Space } from "antd";
import { useTranslation } from "react-i18next";

/** The buttons under every step: back, leave for later, and on to the next step. */
export const StepButtons = (props: {
  busy?: boolean;
  nextDisabled?: boolean;
  nextLabel?: string;
  onBack?: () => void;
  onNext: () => void;
  onLater: () => void;
}) => {
  const { t } = useTranslation();
  return (
    <Space wrap style={{ marginTop: 16 }}>
      {props.onBack ? <Button onClick={props.onBack}>{t("setup.back")}</Button> : null}
      <Button onClick={props.onLater} data-testid="setup-later">
        {t("setup.later")}
      </Button>
      <Button
        type="primary"
        loading={props.busy}
        disabled={props.nextDisabled}
        onClick={props.onNext}
        data-testid="setup-next"
      >
        {props.nextLabel ?? t("setup.next")}
      </Button>
    </Space>
  );
};
