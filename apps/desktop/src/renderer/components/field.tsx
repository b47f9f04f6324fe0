import { Typography } from "antd";
import type { ReactNode } from "react";

/** A labelled control with its error below it (the error is announced and named by the control). */
export const Field = (props: {
  id: string;
  label: string;
  error?: string;
  children: ReactNode;
  hint?: ReactNode;
}) => (
  <div style={{ marginBottom: 16 }}>
    <label htmlFor={props.id} style={{ display: "block", marginBottom: 4, fontWeight: 500 }}>
      {props.label}
    </label>
    {props.children}
    {props.hint ? <div style={{ marginTop: 4 }}>{props.hint}</div> : null}
    <div style={{ minHeight: 20 }}>
      {props.error ? (
        <Typography.Text
          type="danger"
          role="alert"
          id={`${props.id}-error`}
          data-testid={`${props.id}-error`}
        >
          {props.error}
        </Typography.Text>
      ) : null}
    </div>
  </div>
);
