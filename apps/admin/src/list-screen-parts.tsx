import {
  Alert,
  Button,
  Drawer,
  Form,
  type FormInstance,
  Modal,
  Popconfirm,
  Space,
  Tag,
  Typography,
} from "antd";
import { type ReactNode, useEffect, useState } from "react";
import { call, type ItemOf } from "./api";
import { useT } from "./i18n";
import { useCan } from "./session";

/*
 * What the admin's list screens share beyond the shared frame (`ListPage`, `useListData`, `usePaging`
 * of @hisob/ui): a row's status, its edit and delete buttons, the editor drawer, the roles and groups
 * a form chooses from.
 */

/** Active or inactive, in words. */
export const StatusTag = ({ active }: { active: boolean }) => {
  const t = useT();
  return active ? <Tag color="green">{t("common.active")}</Tag> : <Tag>{t("common.inactive")}</Tag>;
};

/** A row's Edit (when `canEdit`) and Delete after a confirmation (when `onDelete`), then any others. */
export const RowActions = (props: { onEdit?: () => void; onDelete?: () => void; children?: ReactNode }) => {
  const t = useT();
  return (
    <Space size={4} wrap>
      {props.onEdit && (
        <Button size="small" onClick={props.onEdit}>
          {t("common.edit")}
        </Button>
      )}
      {props.children}
      {props.onDelete && (
        <Popconfirm title={t("common.confirmDelete")} onConfirm={props.onDelete}>
          <Button size="small" danger>
            {t("common.delete")}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
};

/** A button for the screen's main "new …" action, shown only when `permission` allows it. */
export const NewButton = (props: { permission: string; onClick: () => void; children: ReactNode }) => {
  const can = useCan();
  return can(props.permission) ? (
    <Button type="primary" onClick={props.onClick}>
      {props.children}
    </Button>
  ) : null;
};

type EditorProps = {
  title: string;
  isNew: boolean;
  form: FormInstance;
  initialValues?: Record<string, unknown>;
  saving: boolean;
  banner: string | null;
  onClose: () => void;
  onSave: () => void;
  children: ReactNode;
};

/** An editor's form: labels above fields, checked by our schema rules only (never the browser's bubbles). */
const EditorForm = (props: Pick<EditorProps, "form" | "initialValues" | "banner" | "children">) => (
  <>
    <FormBanner message={props.banner} />
    <Form form={props.form} layout="vertical" noValidate initialValues={props.initialValues}>
      {props.children}
    </Form>
  </>
);

/** A form in a side drawer: Cancel and Create (new) or Save above, the server's message, the form. */
export const EditorDrawer = ({ width, ...props }: EditorProps & { width?: number }) => {
  const t = useT();
  return (
    <Drawer
      open
      size={width ?? 480}
      title={props.title}
      onClose={props.onClose}
      extra={
        <Space>
          <Button onClick={props.onClose}>{t("common.cancel")}</Button>
          <Button type="primary" loading={props.saving} onClick={props.onSave}>
            {props.isNew ? t("common.create") : t("common.save")}
          </Button>
        </Space>
      }
    >
      <EditorForm {...props} />
    </Drawer>
  );
};

/** A short form in a dialog: OK creates (new) or saves. */
export const EditorModal = (props: EditorProps) => {
  const t = useT();
  return (
    <Modal
      open
      title={props.title}
      onCancel={props.onClose}
      onOk={props.onSave}
      okText={props.isNew ? t("common.create") : t("common.save")}
      cancelText={t("common.cancel")}
      confirmLoading={props.saving}
    >
      <EditorForm {...props} />
    </Modal>
  );
};

/** A secret shown once (a new password, a client secret): what to do with it, the secret to copy, OK. */
export const ShownOnceModal = (props: {
  open: boolean;
  title: string;
  help: string;
  onClose: () => void;
  children: ReactNode;
}) => (
  <Modal
    open={props.open}
    title={props.title}
    onOk={props.onClose}
    onCancel={props.onClose}
    cancelButtonProps={{ style: { display: "none" } }}
  >
    <Typography.Paragraph>{props.help}</Typography.Paragraph>
    {props.children}
  </Modal>
);

/**
 * Moves a membership from `before` to `after`: one request adding the new ids together, then one
 * removal per id gone (the routes remove one at a time).
 */
export const syncIds = async (
  before: readonly string[],
  after: readonly string[],
  add: (ids: string[]) => Promise<unknown>,
  remove: (id: string) => Promise<unknown>,
) => {
  const had = new Set(before);
  const added = after.filter((id) => !had.has(id));
  if (added.length > 0) await add(added);
  for (const gone of before.filter((id) => !after.includes(id))) await remove(gone);
};

/** A form's error that names none of its fields, above the form. */
export const FormBanner = ({ message }: { message: string | null }) =>
  message ? <Alert type="error" showIcon title={message} style={{ marginBottom: 16 }} /> : null;

/** A role or a group as a form chooses it: its id and name. */
export type Ref = Pick<ItemOf<"roles.list">, "id" | "name">;

/** The roles or the groups of the organization, by name (a tenant has at most a few hundred). */
const REFS = {
  roles: () => call("roles.list", { limit: 100, sortBy: "name" }),
  groups: () => call("groups.list", { limit: 100 }),
} as const;

/** Roles or groups to choose from, when `permission` lets the user read them. */
export const useRefs = (permission: string, which: keyof typeof REFS) => {
  const can = useCan();
  const [refs, setRefs] = useState<Ref[]>([]);
  const mayRead = can(permission);
  useEffect(() => {
    // Without them the form still works: the choices stay empty.
    if (mayRead)
      REFS[which]().then(
        (page) => setRefs(page.items),
        () => {},
      );
  }, [mayRead, which]);
  return refs;
};

/** Choices of a Select: `{ value: id, label: name }`. */
export const options = (refs: readonly Ref[]) => refs.map((ref) => ({ value: ref.id, label: ref.name }));
