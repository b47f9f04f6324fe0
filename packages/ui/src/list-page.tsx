import { Alert, App, Button, Space, Typography } from "antd";
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

/*
 * A list screen of either app: its frame (title and main action, filters, the load error with a
 * retry, then the list) and its data (loaded when the query changes, reloaded after a change, the
 * server's error shown). Needs antd's <App> above it (for the change's error message).
 */

const messageOf = (caught: unknown) => (caught instanceof Error ? caught.message : String(caught));

/**
 * A list's data: loaded on mount and whenever `fetch` changes (memoize it with its query), `load` to
 * ask again, `act` for a change that reloads afterwards or shows the server's error. An answer that
 * arrives after a newer request was made is dropped (typing fast into a search never shows an older
 * search's rows).
 */
export const useListData = <T,>(fetch: () => Promise<T>) => {
  const { message } = App.useApp();
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const latest = useRef(0);
  const load = useCallback(() => {
    const request = ++latest.current;
    setError(null);
    setLoading(true);
    fetch().then(
      (answer) => {
        if (request !== latest.current) return;
        setData(answer);
        setLoading(false);
      },
      (caught: unknown) => {
        if (request !== latest.current) return;
        setError(messageOf(caught));
        setLoading(false);
      },
    );
  }, [fetch]);
  useEffect(() => {
    load();
  }, [load]);
  const act = useCallback(
    async (work: () => Promise<unknown>) => {
      try {
        await work();
        load();
        return true;
      } catch (caught) {
        message.error(messageOf(caught));
        return false;
      }
    },
    [load, message],
  );
  return { data, error, load, act, loading };
};

/** Server-side paging of a table: the range to ask for and antd Table's pagination props. */
export const usePaging = (pageSize = 20) => {
  const [state, setState] = useState({ current: 1, pageSize });
  return {
    limit: state.pageSize,
    offset: (state.current - 1) * state.pageSize,
    /** Back to the first page (the filters changed). */
    reset: () => setState((previous) => ({ ...previous, current: 1 })),
    /** antd Table's `pagination` for `total` rows; `showTotal` says how many in the app's words. */
    pagination: (total: number, showTotal: (total: number) => ReactNode, sizes?: number[]) => ({
      current: state.current,
      pageSize: state.pageSize,
      total,
      showTotal,
      ...(sizes ? { showSizeChanger: true, pageSizeOptions: sizes } : {}),
    }),
    /** antd Table's `onChange` for the pagination part. */
    change: (pagination: { current?: number; pageSize?: number }) =>
      setState({ current: pagination.current ?? 1, pageSize: pagination.pageSize ?? pageSize }),
  };
};

/** A list screen's frame: the title with its main actions, its filters, the load error with a retry, the list. */
export const ListPage = (props: {
  title: string;
  action?: ReactNode;
  filters?: ReactNode;
  error: string | null;
  onRetry: () => void;
  children: ReactNode;
}) => {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
      <Space style={{ width: "100%", justifyContent: "space-between" }} wrap>
        <Typography.Title level={1} style={{ margin: 0 }}>
          {props.title}
        </Typography.Title>
        {props.action}
      </Space>
      {props.filters && <Space wrap>{props.filters}</Space>}
      {props.error && (
        <Alert
          type="error"
          showIcon
          title={props.error}
          action={<Button onClick={props.onRetry}>{t("ui:retry")}</Button>}
        />
      )}
      {props.children}
    </Space>
  );
};
