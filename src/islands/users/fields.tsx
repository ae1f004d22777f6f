import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';

interface FieldFrameProps {
  label: string;
  error: string | undefined;
  children: (control: {
    id: string;
    invalid: boolean;
    describedBy: string | undefined;
  }) => ReactNode;
}

/** Label above, control, and the field's validation message below, tied together for assistive tech. */
function FieldFrame({ label, error, children }: FieldFrameProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="fieldset py-1">
      <label htmlFor={id} className="fieldset-legend pb-1">
        {label}
      </label>
      {children({ id, invalid: Boolean(error), describedBy: error ? errorId : undefined })}
      {error && (
        <p id={errorId} className="text-sm text-error">
          {error}
        </p>
      )}
    </div>
  );
}

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> {
  label: string;
  error?: string | undefined;
}

export function TextField({ label, error, ...inputProps }: TextFieldProps) {
  return (
    <FieldFrame label={label} error={error}>
      {({ id, invalid, describedBy }) => (
        <input
          id={id}
          className={`input w-full ${invalid ? 'input-error' : ''}`}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          {...inputProps}
        />
      )}
    </FieldFrame>
  );
}

interface SelectFieldProps extends Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  'id' | 'className'
> {
  label: string;
  error?: string | undefined;
}

export function SelectField({ label, error, children, ...selectProps }: SelectFieldProps) {
  return (
    <FieldFrame label={label} error={error}>
      {({ id, invalid, describedBy }) => (
        <select
          id={id}
          className={`select w-full ${invalid ? 'select-error' : ''}`}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          {...selectProps}
        >
          {children}
        </select>
      )}
    </FieldFrame>
  );
}
