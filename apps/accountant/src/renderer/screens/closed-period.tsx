import { describeFailure, formatDate, QueryState, todayIso, useLocale } from "@hisob/ui";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App as AntApp, Button, Card, Descriptions, Modal, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../api-context";
import { DateInput } from "../components/date-input";

export const CLOSED_PERIOD_KEY = ["closed-period"] as const;

/**
 * The organization's closed period (docs/decisions/0094-closed-periods.md): the day the books are closed
 * through, and — for whoever holds `periods:update:all` — moving it, after a confirmation that says what
 * it means. Nothing dated on or before that day can then be created, changed, reversed or deleted.
 */
export const ClosedPeriodScreen = () => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const period = useQuery({ queryKey: CLOSED_PERIOD_KEY, queryFn: () => api.periods.get.query() });
  const [day, setDay] = useState("");
  const [asking, setAsking] = useState<"close" | "open" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const move = useMutation({
    mutationFn: (lockDate: string | null) => api.periods.set.mutate({ lockDate }),
    onSuccess: (answer) => {
      queryClient.setQueryData(CLOSED_PERIOD_KEY, answer);
      setAsking(null);
      setError(null);
      setDay("");
      void message.success(t("closedPeriod.moved"));
    },
    onError: (failure) => {
      setAsking(null);
      setError(describeFailure(failure, t).message);
    },
  });

  return (
    <div>
      <Typography.Title level={1}>{t("closedPeriod.title")}</Typography.Title>
      <Typography.Paragraph type="secondary">{t("closedPeriod.intro")}</Typography.Paragraph>
      <QueryState query={period} rows={2}>
        {(data) => (
          <Card style={{ maxWidth: 640 }}>
            <Descriptions column={1}>
              <Descriptions.Item label={t("closedPeriod.closedThrough")}>
                <Typography.Text strong data-testid="closed-through">
                  {data.lockDate ? formatDate(data.lockDate, locale) : t("closedPeriod.none")}
                </Typography.Text>
              </Descriptions.Item>
            </Descriptions>
            {data.canMove ? (
              <Space direction="vertical" style={{ width: "100%" }}>
                <label htmlFor="closed-period-day">{t("closedPeriod.newDay")}</label>
                <Space wrap>
                  <DateInput
                    id="closed-period-day"
                    value={day}
                    onChange={setDay}
                    width={200}
                    invalid="hold"
                    aria-label={t("closedPeriod.newDay")}
                  />
                  <Button
                    type="primary"
                    data-testid="closed-period-close"
                    disabled={!/^\d{4}-\d{2}-\d{2}$/.test(day) || day > todayIso()}
                    onClick={() => setAsking("close")}
                  >
                    {t("closedPeriod.close")}
                  </Button>
                  {data.lockDate ? (
                    <Button data-testid="closed-period-open" onClick={() => setAsking("open")}>
                      {t("closedPeriod.openAll")}
                    </Button>
                  ) : null}
                </Space>
                {day > todayIso() ? (
                  <Typography.Text type="danger">{t("closedPeriod.future")}</Typography.Text>
                ) : null}
              </Space>
            ) : (
              <Alert type="info" showIcon message={t("closedPeriod.noPermission")} />
            )}
            {error ? <Alert style={{ marginTop: 16 }} type="error" showIcon message={error} /> : null}
          </Card>
        )}
      </QueryState>
      <Modal
        open={asking !== null}
        title={asking === "open" ? t("closedPeriod.confirmOpenTitle") : t("closedPeriod.confirmTitle")}
        okText={asking === "open" ? t("closedPeriod.openAll") : t("closedPeriod.close")}
        cancelText={t("closedPeriod.cancel")}
        okButtonProps={{ id: "closed-period-confirm" }}
        confirmLoading={move.isPending}
        onOk={() => move.mutate(asking === "open" ? null : day)}
        onCancel={() => setAsking(null)}
      >
        <Typography.Paragraph>
          {asking === "open"
            ? t("closedPeriod.confirmOpen")
            : t("closedPeriod.confirmClose", { date: day ? formatDate(day, locale) : "" })}
        </Typography.Paragraph>
      </Modal>
    </div>
  );
};
