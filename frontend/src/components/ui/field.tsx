import { cloneElement, createContext, isValidElement, useContext, useId, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './icons';

type FieldProps = {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  optional?: boolean;
  /** A single input-like element; it gets id, aria-invalid and aria-describedby. */
  children: ReactElement<Record<string, unknown>>;
  className?: string;
  hideLabel?: boolean;
};

type FieldContextValue = { id: string; describedBy?: string; invalid: boolean };
const FieldContext = createContext<FieldContextValue | null>(null);

/**
 * For controls rendered through a wrapper (react-hook-form's Controller): the id,
 * aria-describedby and aria-invalid the enclosing Field would have given them.
 */
export function useFieldControl(): FieldContextValue | null {
  return useContext(FieldContext);
}

/** Label + control + hint + error, wired together for screen readers. */
const sameText = (a: string, b: string) => a.trim().replace(/\.$/, '').toLowerCase() === b.trim().replace(/\.$/, '').toLowerCase();

export function Field({ label, error, hint, optional, children, className, hideLabel }: FieldProps) {
  const { t } = useTranslation(['components', 'common']);
  const id = useId();
  const hintId = `${id}-hint`;
  const errId = `${id}-err`;
  // A hint the error line repeats word for word ("At least 10 characters.") is shown once, as the error.
  const showHint = !!hint && !(error && typeof hint === 'string' && sameText(hint, error));
  const describedBy = [showHint ? hintId : null, error ? errId : null].filter(Boolean).join(' ') || undefined;
  const control = isValidElement(children)
    ? cloneElement(children, {
        id: (children.props.id as string | undefined) ?? id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy,
      })
    : children;
  const controlId = (isValidElement(children) && (children.props.id as string | undefined)) || id;
  return (
    <FieldContext.Provider value={{ id: controlId, describedBy, invalid: !!error }}>
    <div className={['field', className].filter(Boolean).join(' ')}>
      {optional && !hideLabel ? (
        <div className="field-label">
          <label htmlFor={controlId}>{label}</label>
          <span className="optional">{t('field.optional')}</span>
        </div>
      ) : (
        <label htmlFor={controlId} className={hideLabel ? 'sr-only' : 'field-label'}>
          {label}
        </label>
      )}
      {control}
      {showHint ? (
        <div id={hintId} className="field-hint">
          {hint}
        </div>
      ) : null}
      {error ? <FieldErrorText id={errId} message={error} /> : null}
    </div>
    </FieldContext.Provider>
  );
}

export function FieldErrorText({ id, message }: { id?: string; message: string }) {
  return (
    <div id={id} className="field-error" role="alert">
      <Icon name="alert" size={13} />
      <span>{message}</span>
    </div>
  );
}
