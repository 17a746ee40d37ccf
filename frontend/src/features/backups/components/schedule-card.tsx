import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Trans, useTranslation } from 'react-i18next';
import i18n from '@/lib/i18n';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { ReadOnlyFieldset } from '@/components/ui/read-only';
import { Switch } from '@/components/ui/switch';
import { useCanWrite } from '@/lib/api/system';
import { applyServerErrors } from '@/lib/form-errors';
import { formatDateTime, formatRelative } from '@/lib/format';
import type { BackupStatus } from '@/lib/api-types';
import { usePutSchedule } from '../api/backups';

const schema = z.object({
  enabled: z.boolean(),
  intervalHours: z.coerce
    .number({ error: () => i18n.t('backups:schema.enterHours') })
    .int({ error: () => i18n.t('backups:schema.wholeHours') })
    .min(1, { error: () => i18n.t('backups:schema.atLeastHour') })
    .max(744, { error: () => i18n.t('backups:schema.atMostHours') }),
  keep: z.coerce
    .number({ error: () => i18n.t('backups:schema.enterNumber') })
    .int({ error: () => i18n.t('backups:schema.wholeNumber') })
    .min(1, { error: () => i18n.t('backups:schema.keepOne') })
    .max(1000, { error: () => i18n.t('backups:schema.atMost', { max: 1000 }) }),
});
type Input = z.input<typeof schema>;
type Values = z.output<typeof schema>;

const known = (p: string) => p === 'intervalHours' || p === 'keep' || p === 'enabled';

export function ScheduleCard({ status }: { status: BackupStatus }) {
  const { t } = useTranslation(['backups', 'common']);
  const canWrite = useCanWrite();
  const put = usePutSchedule();
  const { register, handleSubmit, setError, reset, formState } = useForm<Input, unknown, Values>({
    resolver: zodResolver(schema),
    defaultValues: status.schedule,
  });
  useEffect(() => reset(status.schedule), [status.schedule, reset]);
  const onSubmit = handleSubmit(async (v) => {
    try {
      await put.mutateAsync(v);
    } catch (e) {
      applyServerErrors(e, setError, { known });
    }
  });
  return (
    <Card>
      <CardHeader
        title={t('schedule.title')}
        description={t('schedule.description')}
      />
      <form onSubmit={onSubmit} noValidate aria-label={t('schedule.label')}>
        <ReadOnlyFieldset readOnly={!canWrite} className="card-body stack">
          <Switch label={t('schedule.enable')} {...register(`enabled`)} />
          <div className="input-row">
            <Field label={t('schedule.every')} error={formState.errors.intervalHours?.message}>
              <input className="input" type="number" min={1} max={744} inputMode="numeric" {...register(`intervalHours`)} />
            </Field>
            <Field label={t('schedule.keep')} error={formState.errors.keep?.message}>
              <input className="input" type="number" min={1} max={1000} inputMode="numeric" {...register(`keep`)} />
            </Field>
            {canWrite ? (
              <Button type="submit" variant="primary" loading={put.isPending}>
                {t('common:actions.save')}
              </Button>
            ) : null}
          </div>
          <p className="small muted">
            {status.next ? (
              <Trans t={t} i18nKey="schedule.next" values={{ when: formatRelative(status.next) }} components={{ time: <span title={formatDateTime(status.next)} /> }} />
            ) : (
              t('schedule.off')
            )}
          </p>
          <Field label={t('schedule.directory')} hint={t('schedule.directoryHint')}>
            <input className="input mono" value={status.directory} readOnly aria-readonly="true" />
          </Field>
        </ReadOnlyFieldset>
      </form>
    </Card>
  );
}
