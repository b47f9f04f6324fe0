import { Segmented } from "antd";
import { useTranslation } from "react-i18next";
import { Navigate, Route, Routes, useLocation, useNavigate } from "react-router-dom";
import { AccountStatementReport } from "./account-statement";
import { CashflowReport } from "./cashflow";
import { IncomeStatementReport } from "./income-statement";
import type { ReportKind } from "./report-frame";
import "./print.css";

/* The Reports section: income statement, cash flow and account statement, one address each. */

const KINDS: ReportKind[] = ["income", "cashflow", "statement"];

export const ReportsSection = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const current = KINDS.find((kind) => location.pathname.endsWith(`/${kind}`)) ?? "income";
  return (
    <div>
      <Segmented
        className="no-print"
        style={{ marginBottom: 16 }}
        aria-label={t("reports.nav")}
        value={current}
        // Switching report keeps the period and the account.
        onChange={(kind) => navigate(`/reports/${kind}${location.search}`)}
        options={KINDS.map((kind) => ({ value: kind, label: t(`reports.titles.${kind}`) }))}
      />
      <Routes>
        <Route path="income" element={<IncomeStatementReport />} />
        <Route path="cashflow" element={<CashflowReport />} />
        <Route path="statement" element={<AccountStatementReport />} />
        <Route path="*" element={<Navigate to="income" replace />} />
      </Routes>
    </div>
  );
};
