import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ReadOnlyFieldset } from '@/components/ui/read-only';
import { useUnsavedGuard } from '@/components/ui/unsaved-guard';
import type { ProtectionSettings } from '@/lib/api-types';
import { applyServerErrors } from '@/lib/form-errors';
import { formToProtection, isKnownProtectionPath, mapProtectionPath, protectionSchema, protectionToForm, type ProtectionValues } from './protection-schema';
import { protectionSections } from './protection-sections';

type Props = {
  serviceId: string;
  initial: ProtectionSettings;
  canWrite: boolean;
  /** Saves the whole document and answers it as stored. */
  onSave: (p: ProtectionSettings) => Promise<ProtectionSettings>;
  saving: boolean;
};

/**
 * Every protection of a service in one form with one save: a sticky bar says when there are
 * unsaved changes (Save / Discard), and leaving the page with some asks first.
 */
export function ProtectionForm({ serviceId, initial, canWrite, onSave, saving }: Props) {
  const { t } = useTranslation('forward-auth');
  const form = useForm<ProtectionValues>({ resolver: zodResolver(protectionSchema), defaultValues: protectionToForm(initial) });
  const { formState, handleSubmit, reset, setError } = form;
  const dirty = formState.isDirty;
  const guard = useUnsavedGuard(dirty && !saving);
  const [formError, setFormError] = useState<string | null>(null);
  // A change saved elsewhere (another tab, an import) shows up when nothing here is unsaved.
  useEffect(() => {
    if (!form.formState.isDirty) form.reset(protectionToForm(initial));
  }, [initial, form]);

  const onSubmit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      reset(protectionToForm(await onSave(formToProtection(v))));
    } catch (e) {
      const rest = applyServerErrors(e, setError, { map: mapProtectionPath, known: isKnownProtectionPath });
      if (rest.length) setFormError(rest.join(' · '));
    }
  });

  const wide = protectionSections.filter((s) => s.wide);
  const grid = protectionSections.filter((s) => !s.wide);
  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} noValidate className="stack" style={{ gap: 20 }} aria-label={t('form.label')}>
        {guard.dialog}
        {formError ? (
          <Alert tone="danger" title={t('form.notSaved')}>
            {formError}
          </Alert>
        ) : null}
        <ReadOnlyFieldset readOnly={!canWrite} style={{ gap: 20 }}>
          {wide.map(({ key, Component }) => (
            <Component key={key} serviceId={serviceId} canWrite={canWrite} />
          ))}
          <div className="grid-2" style={{ alignItems: 'start' }}>
            {grid.map(({ key, Component }) => (
              <Component key={key} serviceId={serviceId} canWrite={canWrite} />
            ))}
          </div>
        </ReadOnlyFieldset>
        {canWrite ? (
          <div className={`save-bar${dirty ? ' dirty' : ''}`} data-testid="protection-save-bar">
            <span className="small muted grow" role="status">
              {dirty ? t('form.unsaved') : t('form.allSaved')}
            </span>
            <Button variant="ghost" disabled={!dirty || saving} onClick={() => reset()}>
              {t('form.discard')}
            </Button>
            <Button type="submit" variant="primary" loading={saving} disabled={!dirty}>
              {t('form.save')}
            </Button>
          </div>
        ) : null}
      </form>
    </FormProvider>
  );
}
