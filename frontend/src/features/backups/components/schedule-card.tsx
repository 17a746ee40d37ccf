import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
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
  intervalHours: z.coerce.number({ message: 'Enter a number of hours' }).int('Enter whole hours').min(1, 'At least 1 hour').max(744, 'At most 744 hours (31 days)'),
  keep: z.coerce.number({ message: 'Enter a number' }).int('Enter a whole number').min(1, 'Keep at least 1').max(1000, 'At most 1000'),
});
type Input = z.input<typeof schema>;
type Values = z.output<typeof schema>;

const known = (p: string) => p === 'intervalHours' || p === 'keep' || p === 'enabled';

export function ScheduleCard({ status }: { status: BackupStatus }) {
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
        title="Schedule"
        description="Scheduled backups are pruned to the newest ones; backups taken by hand are kept until you delete them."
      />
      <form onSubmit={onSubmit} noValidate aria-label="Backup schedule">
        <ReadOnlyFieldset readOnly={!canWrite} className="card-body stack">
          <Switch label="Take backups on a schedule" {...register('enabled')} />
          <div className="input-row">
            <Field label="Every (hours)" error={formState.errors.intervalHours?.message}>
              <input className="input" type="number" min={1} max={744} inputMode="numeric" {...register('intervalHours')} />
            </Field>
            <Field label="Keep (scheduled backups)" error={formState.errors.keep?.message}>
              <input className="input" type="number" min={1} max={1000} inputMode="numeric" {...register('keep')} />
            </Field>
            {canWrite ? (
              <Button type="submit" variant="primary" loading={put.isPending}>
                Save
              </Button>
            ) : null}
          </div>
          <p className="small muted">
            {status.next ? (
              <>
                Next scheduled backup: <span title={formatDateTime(status.next)}>{formatRelative(status.next)}</span>.
              </>
            ) : (
              'Scheduled backups are off.'
            )}
          </p>
          <Field label="Directory" hint="Set with PANEL_BACKUP_DIR when the panel starts; it cannot be changed here.">
            <input className="input mono" value={status.directory} readOnly aria-readonly="true" />
          </Field>
        </ReadOnlyFieldset>
      </form>
    </Card>
  );
}
