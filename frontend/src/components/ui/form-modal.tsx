import { useId, useState, type ReactNode } from 'react';
import { useFormState, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorMessage, isApiError } from '@/lib/api-client';
import { applyServerErrors } from '@/lib/form-errors';
import { Alert } from './alert';
import { Button } from './button';
import { ConfirmDialog, Modal } from './modal';

type FormModalProps<T extends FieldValues> = {
  open: boolean;
  /** Called once the dialog may close: nothing typed, or the person chose to discard it. */
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  size?: 'md' | 'lg';
  /** The form, from useForm with the zod resolver (the caller keeps field arrays and watches). */
  form: UseFormReturn<T>;
  /**
   * Saves the checked values and moves on (closes, or hands the result over). When it
   * throws, the API error's field errors go onto their fields; the rest show above the form.
   */
  onSubmit: (values: T) => Promise<unknown> | void;
  submitLabel: ReactNode;
  /** How server field paths map onto the form's (see applyServerErrors). */
  serverErrors?: Parameters<typeof applyServerErrors>[2];
  /** Title of the alert with errors that belong to no field. */
  errorTitle?: string;
  /** Also show errors that name no field in the alert (otherwise the toast says them). */
  showRequestErrors?: boolean;
  /** The values the form goes back to on close and after a save (default: its default values). */
  resetValues?: T;
  /** id of the form element. */
  id?: string;
  children: ReactNode;
};

/**
 * A dialog holding one react-hook-form form: title, Cancel and submit buttons, the pending
 * state, server field errors mapped onto fields, and a "discard unsaved changes?" question
 * when it is closed (Cancel, Escape, the close button, a click outside) with changes typed.
 */
export function FormModal<T extends FieldValues>({
  open,
  onClose,
  title,
  description,
  size,
  form,
  onSubmit,
  submitLabel,
  serverErrors,
  errorTitle,
  showRequestErrors,
  resetValues,
  id,
  children,
}: FormModalProps<T>) {
  const { t } = useTranslation(['components', 'common']);
  const generatedId = useId();
  const formId = id ?? `${generatedId}form`;
  const { isDirty, isSubmitting } = useFormState({ control: form.control });
  const [formError, setFormError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const reset = () => {
    setFormError(null);
    form.reset(resetValues);
  };
  const close = () => {
    setConfirming(false);
    reset();
    onClose();
  };
  const requestClose = () => {
    // Escape reaches this dialog too while the question is open: the question answers it.
    if (confirming) return;
    if (isDirty && !isSubmitting) setConfirming(true);
    else close();
  };

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await onSubmit(values);
      reset();
    } catch (e) {
      const rest = applyServerErrors(e, form.setError, serverErrors);
      if (rest.length) setFormError(rest.join(' · '));
      else if (showRequestErrors && (!isApiError(e) || e.fields.length === 0)) setFormError(errorMessage(e));
    }
  });

  return (
    <>
      {/* Before the form's dialog: on Discard both close, and focus must end on what opened the form. */}
      <ConfirmDialog
        open={open && confirming}
        title={t('unsaved.title')}
        message={t('unsaved.form')}
        confirmLabel={t('common:actions.discard')}
        danger
        onConfirm={close}
        onCancel={() => setConfirming(false)}
      />
      <Modal
        open={open}
        onClose={requestClose}
        size={size}
        title={title}
        description={description}
        footer={
          <>
            <Button onClick={requestClose}>{t('common:actions.cancel')}</Button>
            <Button variant="primary" type="submit" form={formId} loading={isSubmitting}>
              {submitLabel}
            </Button>
          </>
        }
      >
        <form id={formId} className="stack" onSubmit={submit} noValidate>
          {formError ? (
            <Alert tone="danger" title={errorTitle ?? t('formModal.notSaved')}>
              {formError}
            </Alert>
          ) : null}
          {children}
        </form>
      </Modal>
    </>
  );
}
