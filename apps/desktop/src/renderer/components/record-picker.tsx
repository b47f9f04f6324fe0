import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type RefSelectProps, Select } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

/*
 * A searchable picker over one of the server's lists (categories, counterparties): typing asks the
 * server (its `search` filter, so thousands of records never come to the browser), arrows move, Enter
 * picks, Backspace on an empty search or the clear button empties it. A record picked earlier that is
 * not in the current results is fetched by id, so an edit form shows its name, never a bare id.
 */

export type PickerRecord = { id: string; name: string; hint?: string };

type Props = {
  id: string;
  /** The query-key root of the list (invalidated with it). */
  queryKey: readonly unknown[];
  value: string | null;
  onChange: (value: string | null) => void;
  /** Up to a page of records whose name matches `text` ("" for the first page, by name). */
  search: (text: string) => Promise<PickerRecord[]>;
  /** One record by id (for a value not among the results). */
  resolve: (id: string) => Promise<PickerRecord>;
  placeholder?: string;
  status?: "" | "error";
  onBlur?: () => void;
  /** The control's name when no <label> points at it (a filter bar). */
  "aria-label"?: string;
};

const DEBOUNCE_MS = 200;

/**
 * The clear (×) button stays a mouse target but leaves the Tab order: a form is one Tab stop per
 * field, and Backspace on an empty search clears from the keyboard. Ant Design renders the button
 * itself (no prop reaches it), and anew whenever a value appears, so new ones are caught as they come.
 */
const useClearOutOfTabOrder = () => {
  const select = useRef<RefSelectProps>(null);
  useEffect(() => {
    const root = select.current?.nativeElement;
    if (!root) return;
    const untab = () => {
      for (const button of root.querySelectorAll<HTMLElement>(".ant-select-clear")) button.tabIndex = -1;
    };
    untab();
    const observer = new MutationObserver(untab);
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  return select;
};

export const RecordPicker = (props: Props) => {
  const { t } = useTranslation();
  const select = useClearOutOfTabOrder();
  const [text, setText] = useState("");
  const [debounced, setDebounced] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(text.trim().slice(0, 100)), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const results = useQuery({
    queryKey: [...props.queryKey, "search", debounced],
    queryFn: () => props.search(debounced),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const listed = results.data?.some((record) => record.id === props.value) ?? false;
  const chosen = useQuery({
    queryKey: [...props.queryKey, "one", props.value],
    queryFn: () => props.resolve(props.value ?? ""),
    enabled: props.value !== null && props.value !== "" && !listed && results.isSuccess,
    staleTime: 60_000,
  });
  const records = [...(results.data ?? [])];
  if (chosen.data && !listed && chosen.data.id === props.value) records.unshift(chosen.data);
  return (
    <Select
      ref={select}
      id={props.id}
      aria-label={props["aria-label"]}
      showSearch={{ filterOption: false, onSearch: setText, searchValue: text }}
      allowClear
      value={props.value || null}
      onChange={(value: string | null | undefined) => {
        props.onChange(value ?? null);
        setText("");
      }}
      onBlur={props.onBlur}
      placeholder={props.placeholder ?? t("picker.none")}
      status={props.status}
      style={{ width: "100%" }}
      loading={results.isFetching}
      notFoundContent={results.isPending ? t("ui:loading") : t("picker.noMatch")}
      options={records.map((record) => ({
        value: record.id,
        label: record.name,
        title: record.hint ? `${record.name} — ${record.hint}` : record.name,
      }))}
      optionRender={(option) => {
        const record = records.find((r) => r.id === option.value);
        return (
          <span style={{ display: "flex", justifyContent: "space-between", gap: 12 }}>
            <span>{record?.name}</span>
            {record?.hint ? <span style={{ color: "#8c8c8c" }}>{record.hint}</span> : null}
          </span>
        );
      }}
    />
  );
};
