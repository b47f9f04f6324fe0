import type { Locale } from "@hisob/ui";
import { Alert, Button, Space, Statistic } from "antd";
import { useTranslation } from "react-i18next";
import { useMoney } from "../../api-context";

/**
 * Beside the Post button: the plausibility guard's question with "Post at this rate", or, for an
 * exchange, what the destination receives and the rate it means.
 */
export const MovementOutcome = (props: {
  guard: { message: string } | null;
  exchanging: boolean;
  destination: bigint | null;
  reading: string | null;
  to: { currency: string } | undefined;
  locale: Locale;
  busy: boolean;
  onConfirm: () => void;
}) => {
  const { t } = useTranslation();
  const money = useMoney(props.locale);
  const { guard, exchanging, destination, reading, to } = props;
  return (
    <>
      {guard ? (
        <Alert
          type="warning"
          showIcon
          title={guard.message}
          style={{ flex: 1 }}
          data-testid="rate-guard"
          action={
            <Button danger onClick={props.onConfirm} loading={props.busy} data-testid="confirm-rate">
              {t("transfers.confirmRate")}
            </Button>
          }
        />
      ) : exchanging ? (
        <Space size="large" align="end">
          <Statistic
            title={t("transfers.willReceive")}
            value={destination !== null && to ? money(destination, to.currency) : "—"}
            styles={{ content: { fontSize: 20 } }}
            data-testid="exchange-destination"
          />
          <Statistic
            title={t("transfers.effectiveRate")}
            value={reading ?? "—"}
            styles={{ content: { fontSize: 20 } }}
            data-testid="exchange-rate"
          />
        </Space>
      ) : (
        <span />
      )}
    </>
  );
};
