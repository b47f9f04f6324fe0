import { type ZOidcClientDto, ZRegisterClientInput, type ZRegisteredClientDto } from "@hisob/oidc/schema";
import { numberLocale, useLocale } from "@hisob/ui";
import { useFormSave, useSchemaRule } from "@hisob/ui/forms";
import { Divider, Form, Input, InputNumber, Radio, Select, Switch, Typography } from "antd";
import type { z } from "zod";
import { api } from "../../api";
import { useT } from "../../i18n";
import { EditorDrawer } from "../../list-screen-parts";

/* The OpenID provider's administration is not in the operation catalog: its routes' own schemas type it. */
export type Client = z.output<typeof ZOidcClientDto>;

const GRANTS = ["authorization_code", "refresh_token"];
const SCOPES = ["openid", "profile", "email", "offline_access"];
const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

type Values = Record<string, unknown> & {
  redirectUris: string;
  postLogoutRedirectUris: string;
  webOrigins: string;
  kind: string;
  accessTokenLifetime?: number | null;
  refreshTokenLifetime?: number | null;
  idTokenLifetime?: number | null;
};

const LIFETIMES = ["accessTokenLifetime", "refreshTokenLifetime", "idTokenLifetime"] as const;

/**
 * Seconds, typed and shown with the language's digit grouping (1 209 600 in ru and uz). Out of bounds
 * is said by the form's rule (the schema's words), never silently clamped.
 */
const SecondsInput = (props: {
  id?: string;
  value?: number | null;
  onChange?: (value: number | null) => void;
}) => {
  const t = useT();
  const grouping = new Intl.NumberFormat(numberLocale(useLocale()), { maximumFractionDigits: 0 });
  return (
    <InputNumber<number>
      id={props.id}
      value={props.value ?? null}
      onChange={(value) => props.onChange?.(value ?? null)}
      precision={0}
      // An empty field (null: the server's setting) stays empty, never "0".
      formatter={(value) => {
        const text = String(value ?? "");
        return text === "" ? "" : grouping.format(Number(text));
      }}
      // Digits only, as a string (the input reads it): an emptied field is empty, not 0.
      parser={(text) => (text ?? "").replace(/\D/g, "") as unknown as number}
      placeholder={t("oidc.lifetimeDefault")}
      suffix={t("oidc.seconds")}
      style={{ width: "100%" }}
    />
  );
};

export const ClientDrawer = (props: {
  client: Client | null;
  onClose: () => void;
  onSaved: (registered?: z.output<typeof ZRegisteredClientDto>) => void;
}) => {
  const t = useT();
  const rule = useSchemaRule();
  const [form] = Form.useForm();
  const { client } = props;
  const { save, saving, banner } = useFormSave<Values>(
    form,
    [
      "name",
      "redirectUris",
      "postLogoutRedirectUris",
      "webOrigins",
      ...LIFETIMES,
      "grantTypes",
      "scopes",
      "requirePkce",
    ],
    async (values) => {
      const { kind, ...rest } = values;
      const body = {
        ...rest,
        redirectUris: lines(values.redirectUris),
        postLogoutRedirectUris: lines(values.postLogoutRedirectUris ?? ""),
        webOrigins: lines(values.webOrigins ?? ""),
        // Empty: the server's setting.
        ...Object.fromEntries(LIFETIMES.map((field) => [field, values[field] ?? null])),
      };
      if (client) {
        await api<Client>("PUT", `/oidc-clients/${encodeURIComponent(client.clientId)}`, body);
        props.onSaved();
      } else {
        props.onSaved(
          await api<z.output<typeof ZRegisteredClientDto>>("POST", "/oidc-clients", {
            ...body,
            isPublic: kind === "public",
          }),
        );
      }
    },
  );
  const shape = ZRegisterClientInput.shape;
  return (
    <EditorDrawer
      title={client ? t("oidc.editTitle") : t("oidc.new")}
      isNew={!client}
      saving={saving}
      banner={banner}
      width={560}
      onClose={props.onClose}
      onSave={save}
      form={form}
      initialValues={
        client
          ? {
              ...client,
              redirectUris: client.redirectUris.join("\n"),
              postLogoutRedirectUris: client.postLogoutRedirectUris.join("\n"),
              webOrigins: client.webOrigins.join("\n"),
            }
          : {
              kind: "confidential",
              applicationType: "web",
              grantTypes: GRANTS,
              scopes: SCOPES,
              requirePkce: true,
              isFirstParty: false,
              redirectUris: "",
              postLogoutRedirectUris: "",
              webOrigins: "",
            }
      }
    >
      <Form.Item name="name" label={t("common.name")} required rules={[rule(shape.name)]}>
        <Input />
      </Form.Item>
      {!client && (
        <Form.Item name="kind" label={t("oidc.type")}>
          <Radio.Group
            options={[
              { value: "confidential", label: t("oidc.confidential") },
              { value: "public", label: t("oidc.public") },
            ]}
          />
        </Form.Item>
      )}
      <Form.Item name="applicationType" label={t("oidc.applicationType")}>
        <Select
          options={[
            { value: "web", label: "web" },
            { value: "native", label: "native" },
          ]}
        />
      </Form.Item>
      <Form.Item
        name="redirectUris"
        label={t("oidc.redirectUris")}
        required
        rules={[rule<string | undefined>(shape.redirectUris, { toInput: (value) => lines(value ?? "") })]}
      >
        <Input.TextArea rows={3} placeholder="https://app.example/callback" />
      </Form.Item>
      <Form.Item
        name="postLogoutRedirectUris"
        label={t("oidc.postLogoutRedirectUris")}
        extra={t("oidc.postLogoutRedirectUrisHelp")}
        rules={[
          rule<string | undefined>(shape.postLogoutRedirectUris, { toInput: (value) => lines(value ?? "") }),
        ]}
      >
        <Input.TextArea rows={2} placeholder="https://app.example/signed-out" />
      </Form.Item>
      <Form.Item
        name="webOrigins"
        label={t("oidc.webOrigins")}
        extra={t("oidc.webOriginsHelp")}
        rules={[rule<string | undefined>(shape.webOrigins, { toInput: (value) => lines(value ?? "") })]}
      >
        <Input.TextArea rows={2} placeholder="https://app.example" />
      </Form.Item>
      <Form.Item name="grantTypes" label={t("oidc.grantTypes")}>
        <Select mode="multiple" options={GRANTS.map((value) => ({ value, label: value }))} />
      </Form.Item>
      <Form.Item name="scopes" label={t("oidc.scopes")}>
        <Select mode="multiple" options={SCOPES.map((value) => ({ value, label: value }))} />
      </Form.Item>
      <Form.Item name="requirePkce" label={t("oidc.requirePkce")} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="isFirstParty" label={t("oidc.firstParty")} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Divider titlePlacement="start" plain>
        {t("oidc.lifetimes")}
      </Divider>
      <Typography.Paragraph type="secondary">{t("oidc.lifetimesHelp")}</Typography.Paragraph>
      {LIFETIMES.map((field) => (
        <Form.Item
          key={field}
          name={field}
          label={t(`oidc.${field}`)}
          rules={[rule<number | null | undefined>(shape[field], { toInput: (value) => value ?? null })]}
        >
          <SecondsInput />
        </Form.Item>
      ))}
    </EditorDrawer>
  );
};
