import { Navigate, Route, Routes, useLocation } from "react-router-dom";
import { AccountStatementReport } from "./account-statement";
import { AgingReport } from "./aging";
import { BalancesReport } from "./balances";
import { BalanceSheetReport, GeneralLedgerReport, ProfitAndLossReport, TrialBalanceReport } from "./books";
import { CashflowReport } from "./cashflow";
import { CounterpartyStatementReport } from "./counterparty-statement";
import { IncomeStatementReport } from "./income-statement";
import { REPORT_KINDS } from "./report-groups";
import { ReportNav } from "./report-nav";
import "./print.css";
import "./report-nav.css";

/*
 * The Reports section: income statement, cash flow and account statement, and (decision 0087) the
 * aging, the balances on a date and the counterparty statement, and (decision 0101) the books' trial
 * balance, general ledger, balance sheet and profit and loss, one address each, reached through their
 * navigation in two groups (decision 0108).
 */

export const ReportsSection = () => {
  const location = useLocation();
  const current = REPORT_KINDS.find((kind) => location.pathname.endsWith(`/${kind}`)) ?? "income";
  return (
    <div>
      <ReportNav current={current} />
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
