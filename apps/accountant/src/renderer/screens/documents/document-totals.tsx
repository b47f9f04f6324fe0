import { numberLocale, QueryState, useLocale } from "@hisob/ui";
import type { UseQueryResult } from "@tanstack/react-query";
import { Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useMoney } from "../../api-context";
import type { DocumentKind } from "./document-kind";

/** Every matching document's count and sums per currency, computed by the server (not this page's). */
export const DocumentTotals = (props: {
  kind: DocumentKind;
  totals: UseQueryResult<{ count: number; currencies: { currency: string; amount: string }[] }>;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const { kind, totals } = props;
  return (
    <div
      style={{
        display: "flex",
        flexWrap: "wrap",
        alignItems: "center",
        gap: 8,
        marginBottom: 12,
        minHeight: 24,
      }}
      data-testid="documents-totals"
      aria-live="polite"
    >
      {/* Loading, and a failure said with a retry: never a blank where the totals belong. */}
      <QueryState query={totals} rows={1} errorTitle={t("documents.totalsFailed")}>
        {(data) => (
          <>
            <Typography.Text strong data-testid="documents-count">
              {t(kind === "payments" ? "documents.paymentCount" : "documents.expenseCount", {
                // Grouped as the app's money is ("1 234" in ru and uz).
                n: new Intl.NumberFormat(numberLocale(locale)).format(data.count),
              })}
            </Typography.Text>
            {data.currencies.map((row) => (
              <Tag
                key={row.currency}
                data-testid={`documents-total-${row.currency}`}
                style={{ marginInlineEnd: 0 }}
              >
                {t("documents.total")}:{" "}
                <strong style={{ whiteSpace: "nowrap" }}>{money(row.amount, row.currency)}</strong>
              </Tag>
            ))}
          </>
        )}
      </QueryState>
    </div>
  );
};
