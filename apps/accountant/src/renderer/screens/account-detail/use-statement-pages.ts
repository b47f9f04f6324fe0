import type { TAccountStatement } from "@hisob/finance/schema";
import { useQueries, useQuery } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useRef } from "react";
import { KEYS, useApi } from "../../api-context";
import { ROW_HEIGHT } from "./statement-rows";

const PAGE = 200;

type Entry = TAccountStatement["entries"][number];

/**
 * The statement's rows, virtual: the first page (which tells the total and the balances), then only
 * the pages the visible rows fall on, once the scrolling stops.
 */
export const useStatementPages = (
  id: string,
  range: { startDate: string; endDate: string },
  inOrder: boolean,
) => {
  const api = useApi();
  /**
   * Page `page` of the newest-first list (rows page×PAGE …). The older half is asked oldest first and
   * turned around. (The server now finds any page from its per-day balance checkpoints, so a deep
   * offset no longer costs the rows it skips; reading from the nearer end stays harmless.)
   */
  const statementPage = (page: number, total: number) => ({
    queryKey: [...KEYS.statement, id, range, page, total],
    queryFn: async () => {
      const start = page * PAGE;
      if (page === 0 || start < total / 2) {
        return api.reports.accountStatement.query({
          accountId: id,
          query: { ...range, limit: PAGE, offset: start, order: "desc" },
        });
      }
      const end = Math.min(start + PAGE, total);
      const data = await api.reports.accountStatement.query({
        accountId: id,
        query: { ...range, limit: end - start, offset: total - end, order: "asc" },
      });
      return { ...data, entries: [...data.entries].reverse() };
    },
    staleTime: 60_000,
  });
  // The first page tells the total (and the opening and closing balances).
  const first = useQuery({ ...statementPage(0, 0), enabled: inOrder });
  const total = first.data?.total ?? 0;

  const scroller = useRef<HTMLTableSectionElement>(null);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  // Row i is entry i of the newest-first statement, on page floor(i / PAGE); page 0 is `first`.
  const pages = [...new Set(items.map((item) => Math.floor(item.index / PAGE)))]
    .filter((page) => page > 0)
    .sort((a, b) => a - b);
  // While the list flies past (a dragged scrollbar), pages are not requested: only where it stops.
  const settled = !virtualizer.isScrolling;
  const loaded = useQueries({
    queries: pages.map((page) => ({ ...statementPage(page, total), enabled: settled })),
  });
  const entryAt = (index: number): Entry | undefined => {
    const page = Math.floor(index / PAGE);
    const data = page === 0 ? first.data : loaded[pages.indexOf(page)]?.data;
    return data?.entries[index - page * PAGE];
  };
  return { first, total, scroller, virtualizer, items, entryAt };
};
