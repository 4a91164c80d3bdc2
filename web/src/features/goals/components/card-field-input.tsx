import type { InputHTMLAttributes } from 'react';

/**
 * One field of the local card form: its label, an input whose placeholder only shows the shape of what goes in, and
 * the field's own sentence under it when it is wrong. The sentence sits outside the label, so the field's name stays
 * its label, and is read with the field through aria-describedby.
 */
export function CardFieldInput({
  id,
  label,
  value,
  problem,
  onChange,
  onBlur,
  ...input
}: {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly problem: string | null;
  readonly onChange: (value: string) => void;
  readonly onBlur: () => void;
} & Pick<InputHTMLAttributes<HTMLInputElement>, 'inputMode' | 'autoComplete' | 'placeholder' | 'maxLength'>) {
  const errorId = `${id}-error`;
  return (
    <div className="card-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        {...input}
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? errorId : undefined}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
      />
      {problem ? (
        <p id={errorId} className="field-error">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
