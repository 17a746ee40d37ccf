import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { FormProvider, useForm, type UseFormReturn } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/modal';
import { ReadOnlyNote } from '@/components/ui/read-only';
import { useUnsavedGuard } from '@/components/ui/unsaved-guard';
import { useCanWrite } from '@/lib/api/system';
import { isApiError } from '@/lib/api-client';
import { applyServerErrors } from '@/lib/form-errors';
import { RuleEditor } from './rule-editor';
import { isKnownRulePath, mapRulePath, rulesFormSchema, type RulesFormValues } from './rule-schema';

type Props = {
  initial: RulesFormValues;
  geoip: boolean;
  /**
   * Saves and answers the stored values (the server normalises: upper-case methods, canonical CIDRs).
   * confirmPublic is true once the person confirmed rules that open a protected service to everyone.
   */
  onSave: (v: RulesFormValues, confirmPublic: boolean) => Promise<RulesFormValues>;
  /** What rules that allow every request open, for the confirmation ("Wiki", "every service"). */
  opens: string;
  saving: boolean;
  /** Rendered above the rule list, inside the form (the service's default action). */
  top?: ReactNode;
  /** Rendered beside the form (the rule tester); gets the live form to read drafts from. */
  aside?: (form: UseFormReturn<RulesFormValues>, focusInvalid: () => void) => ReactNode;
  title?: string;
  description?: string;
};


/** Rule list form shared by the service's Access tab and the global rules page. */
export function RulesForm({ initial, geoip, onSave, saving, opens, top, aside, title, description }: Props) {
  const { t } = useTranslation('access');
  const form = useForm<RulesFormValues>({ resolver: zodResolver(rulesFormSchema), defaultValues: initial });
  const { formState, handleSubmit, reset, setError } = form;
  const guard = useUnsavedGuard(formState.isDirty && !saving);
  const [formError, setFormError] = useState<string | null>(null);
  // Values waiting for the person to confirm that they open the service to everyone.
  const [pendingPublic, setPendingPublic] = useState<RulesFormValues | null>(null);
  const canWrite = useCanWrite();
  const root = useRef<HTMLFormElement>(null);
  // Errors open the rules that hold them, so their inputs exist only after the next render:
  // focus the first invalid one then.
  const focusPending = useRef(false);
  const focusInvalid = () => {
    focusPending.current = true;
  };
  useEffect(() => {
    if (!focusPending.current) return;
    const el = root.current?.querySelector<HTMLElement>(':is(input, select, textarea)[aria-invalid="true"]');
    if (!el) return;
    focusPending.current = false;
    el.focus();
  });

  const save = async (v: RulesFormValues, confirmPublic: boolean) => {
    setFormError(null);
    try {
      reset(await onSave(v, confirmPublic));
    } catch (e) {
      // The server decides what opens a protected service to everyone (global rules included):
      // it refuses such a save until it is confirmed, and the confirmation says what it means.
      if (!confirmPublic && isApiError(e) && e.fields.length === 1 && e.fields[0]?.field === 'confirmPublic') {
        e.fieldsShown = true;
        setPendingPublic(v);
        return;
      }
      const rest = applyServerErrors(e, setError, { map: mapRulePath, known: isKnownRulePath });
      if (rest.length) setFormError(rest.join(' · '));
      focusInvalid();
    }
  };
  const onSubmit = handleSubmit(
    (v) => save(v, false),
    () => focusInvalid(),
  );

  return (
    <FormProvider {...form}>
      <div className={aside ? 'access-layout' : undefined}>
        <form ref={root} onSubmit={onSubmit} noValidate className="stack" aria-label={title ?? t('editor.title')}>
          {guard.dialog}
          <ConfirmDialog
            open={pendingPublic !== null}
            title={t('form.public.title')}
            message={
              <Trans t={t} i18nKey="form.public.message" values={{ opens }} components={{ strong: <strong /> }} />
            }
            confirmLabel={t('form.public.confirm')}
            danger
            loading={saving}
            onCancel={() => setPendingPublic(null)}
            onConfirm={async () => {
              const v = pendingPublic;
              setPendingPublic(null);
              if (v) await save(v, true);
            }}
          />
          {formError ? (
            <Alert tone="danger" title={t('form.notSaved')}>
              {formError}
            </Alert>
          ) : null}
          {canWrite ? null : <ReadOnlyNote />}
          {top}
          <RuleEditor geoip={geoip} title={title} description={description} />
          {canWrite ? (
            <div className={`save-bar${formState.isDirty ? ' dirty' : ''}`}>
              <span className="small muted grow" role="status">
                {formState.isDirty ? t('form.unsaved') : t('form.saved')}
              </span>
              <Button variant="ghost" disabled={!formState.isDirty || saving} onClick={() => reset()}>
                {t('form.discard')}
              </Button>
              <Button type="submit" variant="primary" loading={saving} disabled={!formState.isDirty}>
                {t('form.save')}
              </Button>
            </div>
          ) : null}
        </form>
        {aside ? <aside className="access-aside">{aside(form, focusInvalid)}</aside> : null}
      </div>
    </FormProvider>
  );
}
