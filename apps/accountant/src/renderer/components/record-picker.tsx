import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { type RefSelectProps, Select } from "antd";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

/*
 * A searchable picker over one of the server's lists (categories, counterparties): typing asks the
 * server (its `search` filter, so thousands of records never come to the browser), arrows move, Enter
 * picks, Backspace on an empty search or the clear button empties it. A record picked earlier that is
 * not in the current results is fetched by id, so an edit form shows its name, never a bare id.
 *
 * Enter (or Tab) picks what the list shows for the text typed, however fast the typing: while the
 * server's answer for that text is still on its way (the search waits for a pause in typing), the
 * list shows only the loaded records that match, and Enter waits for the answer and picks its first
 * record — never the first of an older, unfiltered list.
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

/** What the server is asked for a typed text (its search filter takes up to 100 characters). */
const searchOf = (text: string) => text.trim().slice(0, 100);

export const RecordPicker = (props: Props) => {
  const { t } = useTranslation();
  const select = useClearOutOfTabOrder();
  const [text, setText] = useState("");
  const [debounced, setDebounced] = useState("");
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  /** The text an Enter (or Tab) was pressed on before the server answered for it; null once it no longer counts. */
  const pending = useRef<string | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(searchOf(text)), DEBOUNCE_MS);
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
  /** The list on screen is the server's answer for the text typed (not an older one kept meanwhile). */
  const current = searchOf(text) === debounced && results.isSuccess && !results.isPlaceholderData;

  let records = [...(results.data ?? [])];
  if (chosen.data && !listed && chosen.data.id === props.value) records.unshift(chosen.data);
  if (!current && searchOf(text)) {
    // Until the server answers for this text, only what already matches it.
    const needle = searchOf(text).toLocaleLowerCase();
    records = records.filter((record) => record.name.toLocaleLowerCase().includes(needle));
  }
  const waitForAnswer = (event: KeyboardEvent) => {
    if ((event.key !== "Enter" && event.key !== "Tab") || event.nativeEvent.isComposing) return;
    if (current || !searchOf(text) || !open) return;
    // Keep the list from picking its (older) active option; pick when the answer for this text arrives.
    event.stopPropagation();
    if (event.key === "Enter") event.preventDefault();
    const search = searchOf(text);
    pending.current = search;
    setDebounced(search);
    void queryClient
      .fetchQuery({
        queryKey: [...props.queryKey, "search", search],
        queryFn: () => props.search(search),
        staleTime: 30_000,
      })
      .then((answer) => {
        // Typing on, or picking with the mouse meanwhile, is a newer intent.
        if (pending.current !== search) return;
        pending.current = null;
        const first = answer[0];
        if (!first) return;
        props.onChange(first.id);
        setText("");
        setOpen(false);
      })
      .catch(() => {
        pending.current = null;
      });
  };
  return (
    // Sees Enter before the list does (the capture phase): see waitForAnswer.
    <div onKeyDownCapture={waitForAnswer} style={{ width: "100%" }}>
      <Select
        ref={select}
        id={props.id}
        aria-label={props["aria-label"]}
        showSearch={{
          filterOption: false,
          onSearch: (typed) => {
            // Typing on is a newer intent (the list empties its search itself when it closes on Tab).
            if (typed !== "" && searchOf(typed) !== pending.current) pending.current = null;
            setText(typed);
          },
          searchValue: text,
        }}
        allowClear
        open={open}
        onOpenChange={setOpen}
        value={props.value || null}
        onChange={(value: string | null | undefined) => {
          props.onChange(value ?? null);
          setText("");
          pending.current = null;
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
    </div>
  );
};
