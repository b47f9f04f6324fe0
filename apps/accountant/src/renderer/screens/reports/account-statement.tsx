import { formatDate, QueryState, useLocale } from "@hisob/ui";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Alert, Button, Empty, Pagination } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { KEYS, useApi, useMoney } from "../../api-context";
import { DrillLink, useRestoredScroll } from "./drill";
import { ReportExport } from "./report-export";
import { ReportControls, ReportHeading, useReportParams } from "./report-frame";
import { accountHref, documentsHref } from "./report-query";
import { CELL, NUM, ReportTable } from "./report-table";

/*
 * Any account over any period: opening balance, each entry with the balance after it, closing balance.
 * Outputs: this screen (printable as it is), the print view of screens/statement-print.tsx, and the .xlsx.
 */

const PAGE = 500;

export const AccountStatementReport = () => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const api = useApi();
  const navigate = useNavigate();
  const [report, setReport] = useReportParams();
  const [page, setPage] = useState(1);
  const accountId = report.accountId;
  const query = { startDate: report.start, endDate: report.end, limit: PAGE, offset: (page - 1) * PAGE };
  const statement = useQuery({
    queryKey: [...KEYS.statement, accountId, "report", query],
    enabled: accountId !== null,
    placeholderData: keepPreviousData,
    queryFn: () => api.reports.accountStatement.query({ accountId: accountId ?? "", query }),
  });
  useRestoredScroll(statement.isSuccess);
  const printView = accountId ? `/accounts/${accountId}/print?start=${report.start}&end=${report.end}` : "";
  return (
    <div data-testid="report-statement">
      <ReportControls
        report={report}
        onChange={(change) => {
          setPage(1);
          setReport(change);
        }}
        account="required"
      />
      <ReportHeading
        kind="statement"
        report={report}
        actions={
          accountId ? (
            <>
              <Button onClick={() => navigate(printView)} data-testid="statement-print-view">
                {t("accounts.printView")}
              </Button>
              <ReportExport
                prepare={() =>
                  api.exports.accountStatement.query({
                    accountId,
                    query: { startDate: report.start, endDate: report.end },
                  })
                }
              />
            </>
          ) : null
        }
      />
      {accountId === null ? (
        <Empty description={t("reports.chooseAccount")} />
      ) : (
        <QueryState query={statement} rows={10}>
          {(data) => {
            const currency = data.account.currency;
            return (
              <>
                {data.total > PAGE ? (
                  <Alert
                    className="no-print"
                    type="info"
                    showIcon
                    style={{ marginBottom: 12 }}
                    title={t("reports.statementPages", { count: data.total, page: PAGE })}
                  />
                ) : null}
                <ReportTable
                  testId="statement-table"
                  textColumns={3}
                  head={[
                    t("documents.date"),
                    t("accounts.type"),
                    t("documents.comment"),
                    t("accounts.change"),
                    t("accounts.runningBalance"),
                  ]}
                >
                  <tr>
                    <td style={CELL} colSpan={4}>
                      <strong>{t("accounts.opening")}</strong>
                    </td>
                    <td style={NUM} data-testid="statement-opening">
                      <strong>{money(data.openingBalance, currency)}</strong>
                    </td>
                  </tr>
                  {data.entries.map((entry) => {
                    const day = { from: entry.date, to: entry.date, accountId: data.account.id };
                    const to =
                      entry.type === "income"
                        ? documentsHref("payments", day)
                        : entry.type === "expense"
                          ? documentsHref("expenses", day)
                          : accountHref(data.account.id, { start: entry.date, end: entry.date });
                    return (
                      <tr key={entry.id}>
                        <td style={{ ...CELL, whiteSpace: "nowrap" }}>{formatDate(entry.date, locale)}</td>
                        <td style={CELL}>{t(`types.${entry.type}`)}</td>
                        <td style={CELL}>{entry.comment}</td>
                        <td style={NUM}>
                          <DrillLink to={to}>{money(entry.change, currency)}</DrillLink>
                        </td>
                        <td style={NUM}>{money(entry.runningBalance, currency)}</td>
                      </tr>
                    );
                  })}
                  <tr>
                    <td style={CELL} colSpan={4}>
                      <strong>{t("accounts.closing")}</strong>
                    </td>
                    <td style={NUM} data-testid="statement-closing">
                      <strong>{money(data.closingBalance, currency)}</strong>
                    </td>
                  </tr>
                </ReportTable>
                {data.total > PAGE ? (
                  <Pagination
                    className="no-print"
                    current={page}
                    pageSize={PAGE}
                    total={data.total}
                    onChange={setPage}
                    showSizeChanger={false}
                  />
                ) : null}
              </>
            );
          }}
        </QueryState>
      )}
    </div>
  );
};
