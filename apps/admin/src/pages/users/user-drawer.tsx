import { ZCreateUserInput } from "@hisob/core/schema";
import { LOCALE_NAMES, LOCALES, type Locale, useLocale } from "@hisob/ui";
import { useFormSave, useSchemaRule } from "@hisob/ui/forms";
import { Form, Input, Select, Switch } from "antd";
import { call, type ItemOf } from "../../api";
import { useT } from "../../i18n";
import { EditorDrawer, options, type Ref, syncIds } from "../../list-screen-parts";
import { useCan, useMe } from "../../session";

type User = ItemOf<"users.list">;

const FIELDS = ["email", "firstName", "lastName", "uiLanguage", "password", "active", "roleIds", "groupIds"];

type Values = {
  email: string;
  firstName: string;
  lastName: string;
  uiLanguage: Locale;
  active: boolean;
  password?: string;
  roleIds: string[];
  groupIds?: string[];
};

/** A new user, or one user's fields, roles and groups (a typed password is the administrator's reset). */
export const UserDrawer = (props: {
  user: User | null;
  roles: Ref[];
  groups: Ref[];
  onClose: () => void;
  onSaved: () => void;
}) => {
  const t = useT();
  const rule = useSchemaRule();
  const can = useCan();
  const me = useMe();
  // A new user starts in the language the admin is using, not always English.
  const language = useLocale();
  const [form] = Form.useForm();
  const { user } = props;

  const { save, saving, banner } = useFormSave<Values>(form, FIELDS, async (values) => {
    if (user) {
      const { roleIds, groupIds, password, ...fields } = values;
      // A typed password is the administrator's reset: the server ends the user's sessions.
      await call("users.update", { id: user.id, data: password ? { ...fields, password } : fields });
      const groupsBefore = user.groups.map((group) => group.id).sort();
      if (groupIds && groupIds.slice().sort().join() !== groupsBefore.join())
        await call("users.setGroups", { id: user.id, data: { groupIds } });
      await syncIds(
        user.roles.map((role) => role.id),
        roleIds,
        (added) => call("users.assignRoles", { id: user.id, data: { roleIds: added } }),
        (removed) => call("users.unassignRole", { id: user.id, roleId: removed }),
      );
    } else {
      const { password, ...rest } = values;
      await call("users.create", password ? { ...rest, password } : rest);
    }
    props.onSaved();
  });

  return (
    <EditorDrawer
      title={user ? t("users.editTitle") : t("users.new")}
      isNew={!user}
      saving={saving}
      banner={banner}
      onClose={props.onClose}
      onSave={save}
      form={form}
      initialValues={
        user
          ? {
              email: user.email,
              firstName: user.firstName,
              lastName: user.lastName,
              uiLanguage: user.uiLanguage,
              active: user.active,
              roleIds: user.roles.map((role) => role.id),
              groupIds: user.groups.map((group) => group.id),
            }
          : { uiLanguage: language, active: true, roleIds: [], groupIds: [] }
      }
    >
      <Form.Item name="email" label={t("users.email")} required rules={[rule(ZCreateUserInput.shape.email)]}>
        <Input type="email" autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="firstName"
        label={t("users.firstName")}
        required
        rules={[rule(ZCreateUserInput.shape.firstName)]}
      >
        <Input />
      </Form.Item>
      <Form.Item
        name="lastName"
        label={t("users.lastName")}
        required
        rules={[rule(ZCreateUserInput.shape.lastName)]}
      >
        <Input />
      </Form.Item>
      <Form.Item name="uiLanguage" label={t("users.language")}>
        <Select options={LOCALES.map((value) => ({ value, label: LOCALE_NAMES[value] }))} />
      </Form.Item>
      {(!user || user.id !== me?.id) && (
        <Form.Item
          name="password"
          label={user ? t("users.setPassword") : t("users.password")}
          extra={user ? t("users.setPasswordHelp") : t("users.passwordHelp")}
          rules={[rule(ZCreateUserInput.shape.password.unwrap(), { optional: true })]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      )}
      <Form.Item name="active" label={t("common.active")} valuePropName="checked">
        <Switch />
      </Form.Item>
      {can("roles:read:all") && (
        <Form.Item name="roleIds" label={t("users.roles")}>
          <Select mode="multiple" options={options(props.roles)} />
        </Form.Item>
      )}
      {can("groups:read:all") && (!user || can("groups:update:all")) && (
        <Form.Item name="groupIds" label={t("users.groups")}>
          <Select mode="multiple" options={options(props.groups)} />
        </Form.Item>
      )}
    </EditorDrawer>
  );
};
