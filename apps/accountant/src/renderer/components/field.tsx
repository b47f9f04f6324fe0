import { Typography } from "antd";
import type { ReactElement, ReactNode } from "react";
import {
  type Control,
  Controller,
  type ControllerRenderProps,
  type FieldValues,
  type Path,
  type RegisterOptions,
} from "react-hook-form";

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

/**
 * A form field bound to react-hook-form: the label, the control `render` draws (given the field and
 * its antd `status`) and the field's error — the client check's or the server's, set on its path.
 */
export const FormField = <V extends FieldValues, N extends Path<V>>(props: {
  control: Control<V>;
  name: N;
  id: string;
  label: string;
  hint?: ReactNode;
  /**
   * The field's own check (a number or a date read as the language writes it): run on submit, on
   * leaving the field, and on every change after that (the form's mode is "onTouched").
   */
  rules?: Pick<RegisterOptions<V, N>, "validate">;
  render: (control: {
    field: ControllerRenderProps<V, N>;
    status: "error" | "";
    /** What our pickers and date input take, ready to spread: `<CounterpartyPicker {...bound} />`. */
    bound: {
      id: string;
      value: ControllerRenderProps<V, N>["value"];
      onChange: ControllerRenderProps<V, N>["onChange"];
      onBlur: ControllerRenderProps<V, N>["onBlur"];
      status: "error" | "";
    };
  }) => ReactElement;
}) => (
  <Controller
    control={props.control}
    name={props.name}
    rules={props.rules}
    render={({ field, fieldState }) => (
      <Field id={props.id} label={props.label} hint={props.hint} error={fieldState.error?.message}>
        {(() => {
          const status = fieldState.error ? "error" : "";
          const { value, onChange, onBlur } = field;
          return props.render({ field, status, bound: { id: props.id, value, onChange, onBlur, status } });
        })()}
      </Field>
    )}
  />
);
