import { Segmented } from "antd";
import { useTranslation } from "react-i18next";
import { Navigate, Route, Routes, useLocation, useNavigate } from "react-router-dom";
import { AccountStatementReport } from "./account-statement";
import { AgingReport } from "./aging";
import { BalancesReport } from "./balances";
import { BalanceSheetReport, GeneralLedgerReport, ProfitAndLossReport, TrialBalanceReport } from "./books";
import { BOOKS_KINDS, type BooksKind } from "./books-query";
import { CashflowReport } from "./cashflow";
import { CounterpartyStatementReport } from "./counterparty-statement";
import { IncomeStatementReport } from "./income-statement";
import type { PartyReportKind } from "./party-report-frame";
import type { ReportKind } from "./report-frame";
import "./print.css";

/*
 * The Reports section: income statement, cash flow and account statement, and (decision 0087) the
 * aging, the balances on a date and the counterparty statement, and (decision 0101) the books' trial
 * balance, general ledger, balance sheet and profit and loss, one address each.
 */

const KINDS: (ReportKind | PartyReportKind | BooksKind)[] = [
  "income",
  "cashflow",
  "statement",
  "aging",
  "balances",
  "counterparty",
  // The books' reports on the general ledger (decision 0101).
  ...BOOKS_KINDS,
];
const PARTY_KINDS: string[] = ["aging", "balances", "counterparty"] satisfies PartyReportKind[];

export const ReportsSection = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const current = KINDS.find((kind) => location.pathname.endsWith(`/${kind}`)) ?? "income";
  return (
    <div>
      <Segmented
        className="no-print"
        // Six reports: on a narrow window the switcher scrolls rather than widening the page.
        style={{ marginBottom: 16, maxWidth: "100%", overflowX: "auto" }}
        aria-label={t("reports.nav")}
        value={current}
        // Switching report keeps the period, the account, the day and the counterparty.
        onChange={(kind) => navigate(`/reports/${kind}${location.search}`)}
        options={KINDS.map((kind) => ({
          value: kind,
          label: PARTY_KINDS.includes(kind)
            ? t(`partyReports.nav.${kind}`)
            : (BOOKS_KINDS as string[]).includes(kind)
              ? t(`booksReports.titles.${kind}`)
              : t(`reports.titles.${kind}`),
        }))}
      />
      <Routes>
        <Route path="income" element={<IncomeStatementReport />} />
        <Route path="cashflow" element={<CashflowReport />} />
        <Route path="statement" element={<AccountStatementReport />} />
        <Route path="aging" element={<AgingReport />} />
        <Route path="balances" element={<BalancesReport />} />
        <Route path="counterparty" element={<CounterpartyStatementReport />} />
        <Route path="trial-balance" element={<TrialBalanceReport />} />
        <Route path="general-ledger" element={<GeneralLedgerReport />} />
        <Route path="balance-sheet" element={<BalanceSheetReport />} />
        <Route path="profit-and-loss" element={<ProfitAndLossReport />} />
        <Route path="*" element={<Navigate to="income" replace />} />
      </Routes>
    </div>
  );
};
