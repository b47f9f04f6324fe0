import { Button, Typography } from "antd";
import type { MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { useHref, useLocation, useNavigate } from "react-router-dom";
import { type AnyReportKind, REPORT_GROUPS, reportNavLabel } from "./report-groups";

/*
 * The reports' navigation (docs/decisions/0108-reports-navigation-in-two-groups.md): two labelled
 * groups of links — the cash reports (money and debts) and the books' reports (the general ledger) —
 * that wrap onto another line rather than scroll out of view, so every report is one click away at any
 * width. Links, not a radio group: each report is an address (middle-click opens it in a new tab), the
 * current one marked with aria-current. Switching keeps the address's query (period, account, day,
 * counterparty).
 */

/** A plain click goes through the router; a click with a modifier (new tab, new window) is the browser's. */
const plainClick = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

const ReportLink = ({ kind, current }: { kind: AnyReportKind; current: boolean }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  const to = `/reports/${kind}${search}`;
  const href = useHref(to);
  return (
    <li>
      <Button
        type={current ? "primary" : "text"}
        href={href}
        aria-current={current ? "page" : undefined}
        data-testid={`report-nav-${kind}`}
        onClick={(event) => {
          if (!plainClick(event)) return;
          event.preventDefault();
          navigate(to);
        }}
      >
        {t(reportNavLabel(kind))}
      </Button>
    </li>
  );
};

export const ReportNav = ({ current }: { current: AnyReportKind }) => {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("reports.nav")} className="no-print report-nav" data-testid="report-nav">
      {REPORT_GROUPS.map((group) => (
        <div key={group.key} className="report-nav-group">
          <Typography.Text type="secondary" id={`report-nav-${group.key}`} className="report-nav-label">
            {t(`reports.groups.${group.key}`)}
          </Typography.Text>
          <ul aria-labelledby={`report-nav-${group.key}`} data-testid={`report-nav-group-${group.key}`}>
            {group.kinds.map((kind) => (
              <ReportLink key={kind} kind={kind} current={kind === current} />
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
};
