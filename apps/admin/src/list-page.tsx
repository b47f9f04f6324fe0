import { Alert, App, Button, Space, Typography } from "antd";
import { type ReactNode, useCallback, useEffect, useState } from "react";
import { useT } from "./i18n";

const messageOf = (caught: unknown) => (caught instanceof Error ? caught.message : String(caught));

/**
 * A list screen's data: loaded on mount and whenever `fetch` changes (memoize it with its query),
 * `load` to ask again, and `act` for a change that reloads afterwards or shows the server's error.
 */
export const useListData = <T,>(fetch: () => Promise<T>) => {
  const { message } = App.useApp();
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    setError(null);
    fetch().then(setData, (caught: unknown) => setError(messageOf(caught)));
  }, [fetch]);
  useEffect(() => {
    load();
  }, [load]);
  const act = async (work: () => Promise<unknown>) => {
    try {
      await work();
      load();
    } catch (caught) {
      message.error(messageOf(caught));
    }
  };
  return { data, error, load, act, loading: data === null && error === null };
};

/** A list screen's frame: the title with its main action, the load error with a retry, then the list. */
export const ListPage = (props: {
  title: string;
  action?: ReactNode;
  error: string | null;
  onRetry: () => void;
  children: ReactNode;
}) => {
  const t = useT();
  return (
    <Space direction="vertical" size="middle" style={{ width: "100%" }}>
      <Space style={{ width: "100%", justifyContent: "space-between" }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {props.title}
        </Typography.Title>
        {props.action}
      </Space>
      {props.error && (
        <Alert
          type="error"
          message={props.error}
          action={<Button onClick={props.onRetry}>{t("common.retry")}</Button>}
        />
      )}
      {props.children}
    </Space>
  );
};
