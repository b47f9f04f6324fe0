import { Alert, Button, Modal, Typography } from "antd";
import type { FormEvent, KeyboardEvent, ReactNode } from "react";
import { useTranslation } from "react-i18next";

type Props = {
  id: string;
  title: string;
  open: boolean;
  busy: boolean;
  /** The form's own error (one the fields do not show), e.g. the server's business-rule message. */
  error?: string | null;
  submitLabel?: string;
  /** Wider than the default 520 px for a form with a grid (a journal entry's lines). */
  width?: number;
  onSubmit: () => void;
  onCancel: () => void;
  children: ReactNode;
};

/**
 * A dialog around one form: Enter in any field posts it (a real <form>), Esc or Cancel closes it. On an
 * error it stays open with everything typed in it.
 *
 * Esc is ours wherever focus is in the dialog: an Esc that bubbles up to it (an open list or calendar
 * inside keeps its own Esc, which closes just that list) closes it, and goes no further. Ant Design's
 * own Esc (`keyboard`, one listener on window) is left for focus outside the dialog; alone it is not
 * enough: it goes to the topmost popup, and a select's list stays the topmost popup until its closing
 * animation has ended (seen outlasting a whole save on a loaded machine), so an Esc right after a pick
 * went to that already closed list and the dialog stayed open.
 */
export const FormModal = (props: Props) => {
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!props.busy) props.onSubmit();
  };
  const closeOnEsc = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || event.nativeEvent.isComposing) return;
    event.stopPropagation();
    props.onCancel();
  };
  return (
    <Modal
      open={props.open}
      title={props.title}
      onCancel={props.onCancel}
      destroyOnHidden
      maskClosable={false}
      keyboard
      modalRender={(dialog) => (
        // biome-ignore lint/a11y/noStaticElementInteractions: catches Esc bubbling up from the dialog's controls
        <div onKeyDown={closeOnEsc}>{dialog}</div>
      )}
      width={props.width ?? 520}
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
