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
import { useAuditSettings, usePutAuditSettings } from '../api/audit';

const schema = z.object({
  retentionDays: z.coerce
    .number({ message: 'Enter a number of days' })
    .int('Enter whole days')
    .min(0, 'Enter 0 or more days')
    .max(36500, 'At most 36500 days'),
});
type Input = z.input<typeof schema>;
type Values = z.output<typeof schema>;

/** How long entries are kept; 0 keeps them forever. Older entries are pruned hourly. */
export function RetentionCard() {
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
      <CardHeader title="Retention" description="Entries older than this are deleted once an hour. Deleting old entries keeps the rest verifiable." />
      {settings.isError ? (
        <div className="card-body">
          <ErrorState error={settings.error} onRetry={() => settings.refetch()} title="Could not load the retention" />
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate aria-label="Audit log retention">
          <div className="card-body input-row">
            {/* Typed before the saved value arrives, a number would be overwritten by it: wait. */}
            <Field label="Keep entries for (days)" hint="0 keeps them forever." error={formState.errors.retentionDays?.message}>
              <input className="input" type="number" min={0} max={36500} inputMode="numeric" disabled={!canWrite || settings.isPending} {...register('retentionDays')} />
            </Field>
            {canWrite ? (
              <Button type="submit" variant="primary" loading={put.isPending} disabled={settings.isPending}>
                Save retention
              </Button>
            ) : null}
          </div>
        </form>
      )}
    </Card>
  );
}
