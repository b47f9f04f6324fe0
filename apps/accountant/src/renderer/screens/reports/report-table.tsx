import { Pagination } from "antd";
import type { ReactNode } from "react";

/* A report's table as plain HTML: paper repeats its header on every page (print.css), unlike a virtual list. */

/** Six pixels a side: eight columns of eight-digit figures fit a 1280 px window in every language (decision 0106). */
export const CELL = { padding: "4px 6px", borderBottom: "1px solid #e5e5e5" } as const;
export const NUM = { ...CELL, textAlign: "right", whiteSpace: "nowrap" } as const;

/** Headers wrap (long Russian and Uzbek words); a table wider than the screen scrolls inside its card. */
export const ReportTable = (props: {
  head: string[];
  children: ReactNode;
  testId?: string;
  /** How many leading columns hold text (left-aligned); the rest are figures. */
  textColumns?: number;
}) => (
  <div className="report-table-scroll" style={{ overflowX: "auto" }}>
    <table
      className="report-table"
      data-testid={props.testId}
      style={{ width: "100%", borderCollapse: "collapse", marginBottom: 16, fontSize: 13 }}
    >
      <thead>
        <tr>
          {props.head.map((label, index) => (
            <th
              key={label}
              style={
                index < (props.textColumns ?? 1)
                  ? { ...CELL, textAlign: "left" }
                  : { ...NUM, whiteSpace: "normal" }
              }
              scope="col"
            >
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{props.children}</tbody>
    </table>
  </div>
);

/** A report's pages, when it has more than one (not on paper). */
export const ReportPages = (props: {
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
}) =>
  props.total > props.pageSize ? (
    <Pagination
      className="no-print"
      current={props.page}
      pageSize={props.pageSize}
      total={props.total}
      onChange={props.onChange}
      showSizeChanger={false}
    />
  ) : null;
