import { Alert, Button, Modal, Typography } from "antd";
import type { FormEvent, ReactNode } from "react";
import { useTranslation } from "react-i18next";

type Props = {
  id: string;
  title: string;
  open: boolean;
  busy: boolean;
  /** The form's own error (one the fields do not show), e.g. the server's business-rule message. */
  error?: string | null;
  submitLabel?: string;
  onSubmit: () => void;
  onCancel: () => void;
  children: ReactNode;
};

/**
 * A dialog around one form: Enter in any field posts it (a real <form>), Esc or Cancel closes it. On an
 * error it stays open with everything typed in it.
 */
export const FormModal = (props: Props) => {
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!props.busy) props.onSubmit();
  };
  return (
    <Modal
      open={props.open}
      title={props.title}
      onCancel={props.onCancel}
      destroyOnHidden
      maskClosable={false}
      keyboard
      width={520}
      footer={[
        <Typography.Text key="hint" type="secondary" style={{ float: "left", lineHeight: "32px" }}>
          {t("ui:keyboardHint")}
        </Typography.Text>,
        <Button key="cancel" onClick={props.onCancel}>
          {t("ui:cancel")}
        </Button>,
        <Button key="submit" type="primary" htmlType="submit" form={props.id} loading={props.busy}>
          {props.submitLabel ?? t("ui:save")}
        </Button>,
      ]}
    >
      <form id={props.id} onSubmit={submit} noValidate aria-label={props.title}>
        {props.error ? (
          <Alert
            type="error"
            showIcon
            title={props.error}
            style={{ marginBottom: 16 }}
            data-testid="form-error"
          />
        ) : null}
        {props.children}
        {/* Enter in a single-line field submits a form only when it has a submit control. */}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </form>
    </Modal>
  );
};
