import { formatDate, todayIso, useLocale } from "@hisob/ui";
import { useQuery } from "@tanstack/react-query";
import { Typography } from "antd";
import { useTranslation } from "react-i18next";
import { KEYS, useApi } from "../api-context";

/*
 * Whose paper it is and when it was printed: the organization's name and the day and time of
 * printing, on every printout. `printOnly`: shown on paper only (a screen already shows the
 * organization in its header).
 */
export const PrintHeader = ({ printOnly = false }: { printOnly?: boolean }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const me = useQuery({ queryKey: KEYS.me, queryFn: () => api.session.me.query() });
  const now = new Date();
  const time = now.toLocaleTimeString(locale === "uz" ? "ru" : locale, {
    hour: "2-digit",
    minute: "2-digit",
  });
  return (
    <div
      className={printOnly ? "print-only" : undefined}
      data-testid="print-header"
      style={{ display: "flex", justifyContent: "space-between", gap: 16, marginBottom: 8 }}
    >
      <Typography.Text strong data-testid="print-organization">
        {me.data?.tenant.name ?? ""}
      </Typography.Text>
      <Typography.Text type="secondary" data-testid="print-date">
        {t("downloads.printedOn", { date: `${formatDate(todayIso(), locale)} ${time}` })}
      </Typography.Text>
    </div>
  );
};
