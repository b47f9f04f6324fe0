import { formatDate, QueryState, useLocale } from "@hisob/ui";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Drawer, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { KEYS, useApi, useMoney } from "../../api-context";
import { DrillLink } from "./drill";
import type { AgingFigure } from "./party-report-query";
import { CELL, NUM, ReportPages, ReportTable } from "./report-table";

/*
 * The debts behind one aging figure read at a past day (decision 0106): exactly those the figure
 * counts, each with what was left of it at the end of that day (a debt settled since shows what it
 * owed then), their count and sum — the figure. Opened from the figure (the address's `debts`), closed
 * by Back or the close button; each debt opens its page.
 */

const PAGE = 20;

export const AgingDebtsDrawer = (props: {
  asOf: string;
  figure: AgingFigure;
  counterpartyName: string | null;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const api = useApi();
  const [page, setPage] = useState(1);
  const { figure, asOf } = props;
  const debts = useQuery({
    queryKey: [...KEYS.reports, "aging-debts", asOf, figure, page],
    queryFn: () =>
      api.reports.agingDebts.query({
        asOf,
        kind: figure.kind,
        currency: figure.currency,
        bucket: figure.bucket,
        ...(figure.counterpartyId ? { counterpartyId: figure.counterpartyId } : {}),
        limit: PAGE,
        offset: (page - 1) * PAGE,
      }),
    placeholderData: keepPreviousData,
  });
  const title = [
    t(`partyReports.kinds.${figure.kind}`),
    props.counterpartyName ?? t("partyReports.allCounterparties"),
    t(`partyReports.buckets.${figure.bucket}`),
    figure.currency,
  ].join(", ");
  return (
    <Drawer open onClose={props.onClose} size={760} title={title} destroyOnHidden>
      <div data-testid="aging-debts">
        <Typography.Paragraph type="secondary">
          {t("partyReports.agingDebts.asOf", { date: formatDate(asOf, locale) })}
        </Typography.Paragraph>
        <QueryState query={debts} rows={6}>
          {(data) => (
            <>
              <Typography.Paragraph data-testid="aging-debts-summary">
                {t("partyReports.agingDebts.summary", {
                  n: data.total,
                  amount: money(data.left, figure.currency),
                })}
              </Typography.Paragraph>
              <ReportTable
                testId="aging-debts-table"
                textColumns={2}
                head={[
                  t("partyReports.counterparty"),
                  t("partyReports.description"),
                  t("partyReports.agingDebts.dueDate"),
                  t("partyReports.agingDebts.daysPastDue"),
                  t("partyReports.amount"),
                  t("partyReports.agingDebts.left"),
                ]}
              >
                {data.items.map((debt) => (
                  <tr key={debt.id} data-testid={`aging-debt-${debt.id}`}>
                    <td style={CELL}>{debt.counterpartyName}</td>
                    <td style={{ ...CELL, overflowWrap: "anywhere" }}>
                      <DrillLink to={`/debts/${debt.id}`}>
                        {debt.description || t("partyReports.agingDebts.noDescription")}
                      </DrillLink>
                    </td>
                    <td style={NUM}>{debt.dueDate ? formatDate(debt.dueDate, locale) : "—"}</td>
                    <td style={NUM}>{debt.daysPastDue ?? "—"}</td>
                    <td style={NUM}>{money(debt.amount, figure.currency)}</td>
                    <td style={NUM} data-testid={`aging-debt-left-${debt.id}`}>
                      {money(debt.left, figure.currency)}
                    </td>
                  </tr>
                ))}
              </ReportTable>
              <ReportPages page={page} pageSize={PAGE} total={data.total} onChange={setPage} />
            </>
          )}
        </QueryState>
      </div>
    </Drawer>
  );
};
