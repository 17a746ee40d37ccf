import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { ErrorState } from '@/components/ui/states';
import { useCanWrite } from '@/lib/api/system';
import { applyServerErrors } from '@/lib/form-errors';
import i18n from '@/lib/i18n';
import { useAuditSettings, usePutAuditSettings } from '../api/audit';

const schema = z.object({
  retentionDays: z.coerce
    .number({ error: () => i18n.t('audit:retention.enterNumber') })
    .int({ error: () => i18n.t('audit:retention.wholeDays') })
    .min(0, { error: () => i18n.t('audit:retention.min') })
    .max(36500, { error: () => i18n.t('audit:retention.max', { max: 36500 }) }),
});
type Input = z.input<typeof schema>;
type Values = z.output<typeof schema>;

/** How long entries are kept; 0 keeps them forever. Older entries are pruned hourly. */
export function RetentionCard() {
  const { t } = useTranslation('audit');
  const settings = useAuditSettings();
  const put = usePutAuditSettings();
  const canWrite = useCanWrite();
  const { register, handleSubmit, setError, reset, formState } = useForm<Input, unknown, Values>({
    resolver: zodResolver(schema),
    defaultValues: { retentionDays: 365 },
  });
  useEffect(() => {
    if (settings.data) reset({ retentionDays: settings.data.retentionDays });
  }, [settings.data, reset]);

  const onSubmit = handleSubmit(async (v) => {
    try {
      await put.mutateAsync(v);
    } catch (e) {
      applyServerErrors(e, setError, { known: (p) => p === 'retentionDays' });
    }
  });

  return (
    <Card>
      <CardHeader title={t('retention.title')} description={t('retention.description')} />
      {settings.isError ? (
        <div className="card-body">
          <ErrorState error={settings.error} onRetry={() => settings.refetch()} title={t('retention.loadFailed')} />
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate aria-label={t('retention.form')}>
          <div className="card-body input-row">
            {/* Typed before the saved value arrives, a number would be overwritten by it: wait. */}
            <Field label={t('retention.label')} hint={t('retention.hint')} error={formState.errors.retentionDays?.message}>
              <input className="input" type="number" min={0} max={36500} inputMode="numeric" disabled={!canWrite || settings.isPending} {...register('retentionDays')} />
            </Field>
            {canWrite ? (
              <Button type="submit" variant="primary" loading={put.isPending} disabled={settings.isPending}>
                {t('retention.save')}
              </Button>
            ) : null}
          </div>
        </form>
      )}
    </Card>
  );
}
