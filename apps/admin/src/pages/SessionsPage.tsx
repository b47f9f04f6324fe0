import { ListPage, useListData, usePaging } from "@hisob/ui";
import { App, Button, Popconfirm, Select, Space, Table, Tag } from "antd";
import { useCallback, useEffect, useState } from "react";
import { api, call, type ItemOf, type OutputOf, urlOf } from "../api";
import { useT } from "../i18n";
import { useCan, useMe } from "../session";
import { type Session, useClientLabel, useSessionColumns } from "./session-columns";

type UserOption = Pick<ItemOf<"users.list">, "id" | "email">;

/** The `client` filter's value for what used a session: browser, api, or the OIDC client's id. */
const clientKey = (client: Session["client"]): string =>
  client.kind === "oidc" ? (client.clientId ?? "") : client.kind;

/** Users whose email contains what is typed (the first 20), for the user filter. */
const useUserSearch = () => {
  const [search, setSearch] = useState("");
  const [options, setOptions] = useState<UserOption[]>([]);
  useEffect(() => {
    let current = true;
    call("users.list", { email: search.trim(), limit: 20, sortBy: "email" })
      .then((page) => current && setOptions(page.items))
      .catch(() => current && setOptions([]));
    return () => {
      current = false;
    };
  }, [search]);
  return { options, setSearch };
};

/**
 * The organization's live sessions, most recently used first: whose, which (short id), when started
 * and last used, through what (our pages, the API or an OIDC client by name), from which network and
 * device. Filter by user and by client; end one, or all of a user's, each after a confirmation.
 */
export const SessionsPage = () => {
  const t = useT();
  const can = useCan();
  const me = useMe();
  const { message } = App.useApp();
  const clientLabel = useClientLabel();
  const [filters, setFilters] = useState<{ user?: UserOption; client?: Session["client"] }>({});
  const paging = usePaging(50);
  const filter = (change: Partial<typeof filters>) => {
    setFilters((previous) => ({ ...previous, ...change }));
    paging.reset();
  };
  const users = useUserSearch();

  const listUrl = urlOf("sessions.listForTenant", {
    userId: filters.user?.id,
    client: filters.client ? clientKey(filters.client) : undefined,
    limit: paging.limit,
    offset: paging.offset,
  });
  const fetchSessions = useCallback(() => api<OutputOf<"sessions.listForTenant">>("GET", listUrl), [listUrl]);
  const { data, error, load, act, loading } = useListData(fetchSessions);

  // Our own ways in, and the OIDC clients seen in the list (and the one chosen).
  const known = new Map<string, Session["client"]>([
    ["browser", { kind: "browser", clientId: null, name: null }],
    ["api", { kind: "api", clientId: null, name: null }],
  ]);
  for (const session of data?.items ?? []) known.set(clientKey(session.client), session.client);
  if (filters.client) known.set(clientKey(filters.client), filters.client);
  const clientOptions = [...known].map(([value, client]) => ({ value, label: clientLabel(client), client }));

  const mayEnd = (session: Session) => session.userId === me?.id || can("sessions:delete:all");
  const endAllOf = (user: UserOption) =>
    act(async () => {
      const { ended } = await call("sessions.endAllForUser", { id: user.id });
      message.success(t("sessions.ended", { count: ended }));
    });
  const columns = useSessionColumns({
    mayEnd,
    onEnd: (session) => act(() => call("sessions.end", { id: session.id })),
    onClient: (session) => filter({ client: session.client }),
    user: (session) => (
      <Button
        type="link"
        size="small"
        style={{ padding: 0, height: "auto", whiteSpace: "normal", textAlign: "start" }}
        title={session.userId}
        onClick={() => filter({ user: { id: session.userId, email: session.userEmail } })}
      >
        {session.userEmail || session.userId}
      </Button>
    ),
  });

  const chosenUser = filters.user;
  return (
    <ListPage
      title={t("sessions.pageTitle")}
      error={error}
      onRetry={load}
      action={
        chosenUser &&
        (chosenUser.id === me?.id || can("sessions:delete:all")) && (
          <Popconfirm
            title={t("sessions.endAllOf", { name: chosenUser.email })}
            description={t("sessions.endAllHelp")}
            okButtonProps={{ danger: true }}
            styles={{ root: { maxWidth: 360 } }}
            onConfirm={() => endAllOf(chosenUser)}
          >
            <Button danger>{t("sessions.endAllOf", { name: chosenUser.email })}</Button>
          </Popconfirm>
        )
      }
      filters={
        <Space wrap>
          <Select
            aria-label={t("sessions.user")}
            placeholder={t("sessions.user")}
            allowClear
            showSearch={{ filterOption: false, onSearch: users.setSearch }}
            value={filters.user?.id}
            options={[
              ...(filters.user && !users.options.some((user) => user.id === filters.user?.id)
                ? [filters.user]
                : []),
              ...users.options,
            ].map((user) => ({ value: user.id, label: user.email }))}
            onChange={(id?: string) => {
              const user =
                id === undefined
                  ? undefined
                  : (users.options.find((option) => option.id === id) ?? filters.user);
              filter({ user });
              users.setSearch("");
            }}
            style={{ width: 280 }}
          />
          <Select
            aria-label={t("sessions.client")}
            placeholder={t("sessions.client")}
            allowClear
            value={filters.client ? clientKey(filters.client) : undefined}
            options={clientOptions.map(({ value, label }) => ({ value, label }))}
            onChange={(value?: string) =>
              filter({ client: clientOptions.find((option) => option.value === value)?.client })
            }
            style={{ width: 240 }}
          />
          {filters.client?.kind === "oidc" && (
            <Tag title={filters.client.clientId ?? ""}>{filters.client.clientId}</Tag>
          )}
        </Space>
      }
    >
      <Table<Session>
        rowKey="id"
        size="small"
        loading={loading}
        dataSource={data?.items ?? []}
        pagination={paging.pagination(data?.total ?? 0, (total) => t("common.total", { count: total }))}
        onChange={paging.change}
        columns={columns}
        scroll={{ x: "max-content" }}
      />
    </ListPage>
  );
};
