import { Alert } from "antd";

/** A refusal of the server, in its words, kept on the screen until closed or replaced (not a 3-second toast). */
export const Refusal = (props: { message: string | null; onClose: () => void; testId: string }) =>
  props.message ? (
    <Alert
      type="error"
      showIcon
      closable
      onClose={props.onClose}
      title={props.message}
      data-testid={props.testId}
    />
  ) : null;
