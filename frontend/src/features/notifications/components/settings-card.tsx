import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { ErrorState } from '@/components/ui/states';
import { useCanWrite } from '@/lib/api/system';
import { applyServerErrors } from '@/lib/form-errors';
import { useChannels, useNotificationSettings, usePutNotificationSettings } from '../api/notifications';

const schema = z.object({
  certWarningDays: z.coerce.number({ message: 'Enter a number of days' }).int('Enter whole days').min(1, 'At least 1 day').max(365, 'At most 365 days'),
  debounceSeconds: z.coerce.number({ message: 'Enter a number of seconds' }).int('Enter whole seconds').min(0, '0 or more').max(3600, 'At most 3600 seconds'),
  mailChannelId: z.string(),
});
type Input = z.input<typeof schema>;
type Values = z.output<typeof schema>;

export function NotificationSettingsCard() {
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
      <CardHeader title="When to notify" description="A state (a backend down, a certificate expiring) must last the debounce time before it is sent, and is sent once until it changes." />
      {settings.isError ? (
        <div className="card-body">
          <ErrorState error={settings.error} onRetry={() => settings.refetch()} title="Could not load the notification settings" />
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate aria-label="Notification settings">
          <div className="card-body input-row">
            <Field label="Warn about certificates expiring within (days)" error={formState.errors.certWarningDays?.message}>
              <input className="input" type="number" min={1} max={365} inputMode="numeric" disabled={!canWrite} {...register('certWarningDays')} />
            </Field>
            <Field label="Debounce (seconds)" error={formState.errors.debounceSeconds?.message}>
              <input className="input" type="number" min={0} max={3600} inputMode="numeric" disabled={!canWrite} {...register('debounceSeconds')} />
            </Field>
            <Field
              label="E-mail to people goes through"
              hint="Sign-in codes of the e-mail code protection are sent through this channel."
              error={formState.errors.mailChannelId?.message}
            >
              <select className="select" disabled={!canWrite} {...register('mailChannelId')}>
                <option value="">No channel (no mail to people)</option>
                {emailChannels.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </Field>
            {canWrite ? (
              <Button type="submit" variant="primary" loading={put.isPending} disabled={settings.isPending}>
                Save
              </Button>
            ) : null}
          </div>
        </form>
      )}
    </Card>
  );
}
