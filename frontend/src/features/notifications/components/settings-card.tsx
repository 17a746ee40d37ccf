import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import i18n from '@/lib/i18n';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { ErrorState } from '@/components/ui/states';
import { useCanWrite } from '@/lib/api/system';
import { applyServerErrors } from '@/lib/form-errors';
import { useChannels, useNotificationSettings, usePutNotificationSettings } from '../api/notifications';

const schema = z.object({
  certWarningDays: z.coerce
    .number({ error: () => i18n.t('notifications:settings.enterDays') })
    .int({ error: () => i18n.t('notifications:settings.wholeDays') })
    .min(1, { error: () => i18n.t('notifications:settings.atLeastDay') })
    .max(365, { error: () => i18n.t('notifications:settings.atMostDays', { max: 365 }) }),
  debounceSeconds: z.coerce
    .number({ error: () => i18n.t('notifications:settings.enterSeconds') })
    .int({ error: () => i18n.t('notifications:settings.wholeSeconds') })
    .min(0, { error: () => i18n.t('notifications:settings.zeroOrMore') })
    .max(3600, { error: () => i18n.t('notifications:settings.atMostSeconds', { max: 3600 }) }),
  mailChannelId: z.string(),
});
type Input = z.input<typeof schema>;
type Values = z.output<typeof schema>;

export function NotificationSettingsCard() {
  const { t } = useTranslation(['notifications', 'common']);
  const canWrite = useCanWrite();
  const settings = useNotificationSettings();
  const put = usePutNotificationSettings();
  const channels = useChannels();
  const emailChannels = (channels.data ?? []).filter((c) => c.kind === 'email');
  const { register, handleSubmit, setError, reset, formState } = useForm<Input, unknown, Values>({
    resolver: zodResolver(schema),
    defaultValues: { certWarningDays: 14, debounceSeconds: 60, mailChannelId: '' },
  });
  useEffect(() => {
    // A choice made before the settings arrived (or while they refetch) is kept.
    if (settings.data) reset({ ...settings.data, mailChannelId: settings.data.mailChannelId ?? '' }, { keepDirtyValues: true });
  }, [settings.data, reset]);
  const onSubmit = handleSubmit(async (v) => {
    try {
      await put.mutateAsync(v);
    } catch (e) {
      applyServerErrors(e, setError, { known: (p) => p === 'certWarningDays' || p === 'debounceSeconds' || p === 'mailChannelId' });
    }
  });
  return (
    <Card>
      <CardHeader title={t('settings.title')} description={t('settings.description')} />
      {settings.isError ? (
        <div className="card-body">
          <ErrorState error={settings.error} onRetry={() => settings.refetch()} title={t('settings.loadFailed')} />
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate aria-label={t('settings.label')}>
          <div className="card-body input-row">
            <Field label={t('settings.certWarning')} error={formState.errors.certWarningDays?.message}>
              <input className="input" type="number" min={1} max={365} inputMode="numeric" disabled={!canWrite} {...register(`certWarningDays`)} />
            </Field>
            <Field label={t('settings.debounce')} error={formState.errors.debounceSeconds?.message}>
              <input className="input" type="number" min={0} max={3600} inputMode="numeric" disabled={!canWrite} {...register(`debounceSeconds`)} />
            </Field>
            <Field
              label={t('settings.mail')}
              hint={t('settings.mailHint')}
              error={formState.errors.mailChannelId?.message}
            >
              <select className="select" disabled={!canWrite} {...register(`mailChannelId`)}>
                <option value="">{t('settings.noMail')}</option>
                {emailChannels.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </Field>
            {canWrite ? (
              <Button type="submit" variant="primary" loading={put.isPending} disabled={settings.isPending}>
                {t('common:actions.save')}
              </Button>
            ) : null}
          </div>
        </form>
      )}
    </Card>
  );
}
