import type { UseQueryResult } from "@tanstack/react-query";
import { Alert, Button, Empty, Skeleton } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { describeFailure } from "./api";

type Props<T> = {
  query: UseQueryResult<T>;
  /** True when the data is there but has nothing to show (then `empty` is shown). */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  /** What could not be loaded, when the screen shows more than this (else "Could not load this"). */
  errorTitle?: string;
  /** Rows of the skeleton: about the height the content will take (no jump when data arrives). */
  rows?: number;
  children: (data: T) => ReactNode;
};

/** Every request's three states: loading (a skeleton of the content's size), error (with retry), empty. */
export const QueryState = <T,>({ query, isEmpty, empty, errorTitle, rows = 3, children }: Props<T>) => {
  const { t } = useTranslation();
  if (query.isPending) {
    return (
      <output aria-label={t("ui:loading")} style={{ display: "block" }}>
        <Skeleton active paragraph={{ rows }} title={false} />
      </output>
    );
  }
  if (query.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title={errorTitle ?? t("ui:error")}
        description={describeFailure(query.error, t).message}
        action={
          <Button size="small" onClick={() => void query.refetch()}>
            {t("ui:retry")}
          </Button>
        }
      />
    );
  }
  if (isEmpty?.(query.data)) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty ?? t("ui:empty")} />;
  }
  return <>{children(query.data)}</>;
};
