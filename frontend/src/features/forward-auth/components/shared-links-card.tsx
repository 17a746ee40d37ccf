import { DurationUnitOptions } from '@/components/ui/duration-unit-options';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Badge, type Tone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { Field } from '@/components/ui/field';
import { FormModal } from '@/components/ui/form-modal';
import { ConfirmDialog, Modal } from '@/components/ui/modal';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import type { SharedLink, SharedLinkStatus } from '@/lib/api-types';
import { useCanWrite } from '@/lib/api/system';
import { formatDateTime, formatDuration, formatRelative } from '@/lib/format';
import { useCreateSharedLink, useRevokeSharedLink, useSharedLinks } from '../api/security';
import { linkValidity } from './link-validity';
import { QrCode } from './qr-code';

const statusTone: Record<SharedLinkStatus, { tone: Tone; label: string }> = {
  active: { tone: 'success', label: 'Active' },
  used: { tone: 'info', label: 'Used' },
  expired: { tone: 'neutral', label: 'Expired' },
  revoked: { tone: 'danger', label: 'Revoked' },
  locked: { tone: 'danger', label: 'Locked' },
};

/** Wrong PINs or passwords after which a link locks (the server's LinkPINMaxFailures). */
const MAX_WRONG = 10;

const secretLabel = { pin: 'PIN', password: 'Password' } as const;

const schema = z.object({
  lifetimeAmount: z.number({ message: 'Enter a number' }).positive('Must be positive'),
  lifetimeUnit: z.number(),
  sessionAmount: z.number({ message: 'Enter a number' }).positive('Must be positive'),
  sessionUnit: z.number(),
  note: z.string().trim().max(200, 'At most 200 characters'),
  path: z
    .string()
    .trim()
    .refine((v) => v === '' || v.startsWith('/'), 'Paths start with /')
    .refine((v) => !/[?#\s]/.test(v), 'A path only: no query, fragment or spaces'),
  secret: z.enum(['none', 'pin', 'password']),
  pin: z.string(),
  password: z.string(),
}).superRefine((v, ctx) => {
  if (v.secret === 'pin' && !/^\d{4,12}$/.test(v.pin)) ctx.addIssue({ code: 'custom', path: ['pin'], message: '4 to 12 digits' });
  if (v.secret === 'password' && (v.password.length < 8 || v.password.length > 128)) ctx.addIssue({ code: 'custom', path: ['password'], message: '8 to 128 characters' });
});
type Values = z.infer<typeof schema>;

/** The service's links: made and revoked at once (they are not part of the protection form). */
export function SharedLinksCard({ serviceId, enabled }: { serviceId: string; enabled: boolean }) {
  const links = useSharedLinks(serviceId);
  const revoke = useRevokeSharedLink(serviceId);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<SharedLink | null>(null);
  const [revoking, setRevoking] = useState<SharedLink | null>(null);
  const list = links.data ?? [];
  const canWrite = useCanWrite();
  const columns: Column<SharedLink>[] = [
    {
      id: 'note',
      header: 'Note',
      cell: (l) => (
        <div className="stack-sm" style={{ gap: 0 }}>
          <span>
            {l.note || <span className="faint">No note</span>}
            {l.challenge && l.challenge !== 'none' ? (
              <>
                {' '}
                <Badge icon="lock">{secretLabel[l.challenge]}</Badge>
              </>
            ) : null}
          </span>
          <span className="small muted">
            created {formatRelative(l.createdAt)}
            {l.path && l.path !== '/' ? (
              <>
                {' · opens '}
                <span className="mono">{l.path}</span>
              </>
            ) : null}
          </span>
        </div>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      cell: (l) => {
        const st = statusTone[l.status] ?? { tone: 'neutral' as Tone, label: l.status };
        const tries = l.failedAttempts ? `${l.failedAttempts} wrong ${l.challenge === 'password' ? 'password' : 'PIN'}${l.failedAttempts === 1 ? '' : 's'}` : '';
        return (
          <span className="stack-sm" style={{ gap: 0 }}>
            <Badge tone={st.tone}>{st.label}</Badge>
            {tries ? <span className="small muted">{tries}</span> : null}
          </span>
        );
      },
    },
    {
      id: 'validity',
      header: 'Validity',
      className: 'small nowrap',
      cellProps: (l) => ({ title: linkValidity(l).title, 'data-testid': 'link-validity' }),
      cell: (l) => linkValidity(l).text,
    },
    { id: 'session', header: 'Session', className: 'small nowrap', sortValue: (l) => l.sessionSeconds, cell: (l) => formatDuration(l.sessionSeconds) },
    actionsColumn((l) =>
      canWrite && (l.status === 'active' || l.status === 'used' || l.status === 'locked') ? (
        <Button size="sm" variant="ghost" icon="x" onClick={() => setRevoking(l)} aria-label={`Revoke link ${l.note || l.id}`}>
          Revoke
        </Button>
      ) : null,
    ),
  ];
  return (
    <Card>
      <CardHeader
        title="Links"
        description="Each link opens the service once, in one browser, for the session length you choose."
        actions={
          <>
            {canWrite ? (
              <Button variant="primary" size="sm" icon="plus" disabled={!enabled} onClick={() => setCreating(true)}>
                New link
              </Button>
            ) : null}
          </>
        }
      />
      <div className="card-body stack">
        {links.isPending ? (
          <LoadingRows rows={2} />
        ) : links.isError ? (
          <ErrorState error={links.error} onRetry={() => links.refetch()} />
        ) : (
          <DataTable
            data={list}
            rowKey={(l) => l.id}
            columns={columns}
            empty={
              <EmptyState icon="link" title="No links yet">
                {!canWrite ? null : enabled ? 'Create a link and send it, or show its QR code.' : 'Turn shared links on above and save to create one.'}
              </EmptyState>
            }
          />
        )}
      </div>
      <CreateLinkModal
        serviceId={serviceId}
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(l) => {
          setCreating(false);
          setCreated(l);
        }}
      />
      <Modal
        open={!!created}
        onClose={() => setCreated(null)}
        title="Link ready"
        description="Copy it now: for your safety the full link is shown only once."
        footer={<Button variant="primary" onClick={() => setCreated(null)}>Done</Button>}
      >
        {created?.url ? (
          <div className="stack" style={{ alignItems: 'center' }}>
            <QrCode value={created.url} label="QR code of the shared link" />
            <div className="link-box" style={{ width: '100%' }}>
              <label htmlFor="shared-url" className="sr-only">Shared link</label>
              <input id="shared-url" className="input" readOnly value={created.url} onFocus={(e) => e.currentTarget.select()} data-testid="shared-link-url" />
              <CopyButton text={created.url} size="md" />
            </div>
            <p className="muted small" style={{ textAlign: 'center' }}>
              Valid until {formatDateTime(created.expiresAt)} · grants a {formatDuration(created.sessionSeconds)} session
            </p>
            {created.challenge && created.challenge !== 'none' ? (
              <div style={{ width: '100%' }}>
                <Alert tone="info" title={`The link asks for its ${created.challenge === 'pin' ? 'PIN' : 'password'}`}>
                  Send the {created.challenge === 'pin' ? 'PIN' : 'password'} another way than the link (say it, or send it in another app). After{' '}
                  {MAX_WRONG} wrong tries the link locks.
                </Alert>
              </div>
            ) : null}
            {created.warnings?.length ? (
              <div style={{ width: '100%' }}>
                <Alert tone="warning" title="The link may not open the service">
                  <ul className="plain-list">
                    {created.warnings.map((w) => (
                      <li key={w}>{w}</li>
                    ))}
                  </ul>
                </Alert>
              </div>
            ) : null}
          </div>
        ) : (
          <p className="muted">The link was created but the server did not return its URL.</p>
        )}
      </Modal>
      <ConfirmDialog
        open={!!revoking}
        title="Revoke this link?"
        message="It stops working immediately, and sessions started with it end."
        confirmLabel="Revoke link"
        danger
        loading={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) })}
      />
    </Card>
  );
}

/** Six random digits, from the browser's cryptographic source. */
export function randomPin(): string {
  const a = new Uint32Array(6);
  crypto.getRandomValues(a);
  return Array.from(a, (n) => String(n % 10)).join('');
}

function CreateLinkModal({ serviceId, open, onClose, onCreated }: { serviceId: string; open: boolean; onClose: () => void; onCreated: (l: SharedLink) => void }) {
  const create = useCreateSharedLink(serviceId);
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { lifetimeAmount: 1, lifetimeUnit: 86400, sessionAmount: 1, sessionUnit: 86400, note: '', path: '', secret: 'none', pin: '', password: '' },
  });
  const { register, formState } = form;
  const secret = form.watch('secret');
  const unitSelect = (name: 'lifetimeUnit' | 'sessionUnit', label: string) => (
    <Field label={label} hideLabel>
      <select className="select" style={{ width: 120 }} {...register(name, { valueAsNumber: true })}>
        <DurationUnitOptions />
      </select>
    </Field>
  );
  return (
    <FormModal
      open={open}
      onClose={onClose}
      form={form}
      id="link-form"
      title="New shared link"
      submitLabel="Create link"
      serverErrors={{ map: (p) => (p === 'lifetimeSeconds' ? 'lifetimeAmount' : p === 'sessionSeconds' ? 'sessionAmount' : p) }}
      onSubmit={async (v) => {
        const link = await create.mutateAsync({
          lifetimeSeconds: Math.round(v.lifetimeAmount * v.lifetimeUnit),
          sessionSeconds: Math.round(v.sessionAmount * v.sessionUnit),
          note: v.note,
          ...(v.path ? { path: v.path } : {}),
          ...(v.secret === 'pin' ? { pin: v.pin } : {}),
          ...(v.secret === 'password' ? { password: v.password } : {}),
        });
        onCreated(link);
      }}
    >
      <Field label="Note" optional error={formState.errors.note?.message} hint="Who the link is for. Shown only to you.">
        <input className="input" placeholder="For Bob" data-autofocus {...register('note')} />
      </Field>
      <Field label="Landing path" optional error={formState.errors.path?.message} hint="Where the link lands after the guest opens it.">
        <input className="input mono" placeholder="default: the service's first path rule, else /" autoCapitalize="off" spellCheck={false} {...register('path')} />
      </Field>
      <Field label="Ask the guest for" hint="Without it, whoever holds the link can open it. Send the PIN or password another way than the link.">
        <select className="select" {...register('secret')}>
          <option value="none">Nothing: the link is enough</option>
          <option value="pin">A PIN</option>
          <option value="password">A password</option>
        </select>
      </Field>
      {secret === 'pin' ? (
        <div className="input-row">
          <Field label="PIN" error={formState.errors.pin?.message} hint="4 to 12 digits.">
            <input className="input mono" inputMode="numeric" autoComplete="off" style={{ width: 180 }} {...register('pin')} />
          </Field>
          <Button variant="ghost" icon="refresh" onClick={() => form.setValue('pin', randomPin(), { shouldDirty: true, shouldValidate: true })}>
            Suggest one
          </Button>
        </div>
      ) : null}
      {secret === 'password' ? (
        <Field label="Link password" error={formState.errors.password?.message} hint="8 to 128 characters.">
          <input className="input" autoComplete="new-password" {...register('password')} />
        </Field>
      ) : null}
      <div className="field">
        <span className="field-label">Link valid for</span>
        <div className="row" style={{ alignItems: 'flex-start' }}>
          <Field label="Link lifetime" hideLabel error={formState.errors.lifetimeAmount?.message}>
            <input className="input" style={{ width: 100 }} inputMode="numeric" {...register('lifetimeAmount', { valueAsNumber: true })} />
          </Field>
          {unitSelect('lifetimeUnit', 'Link lifetime unit')}
        </div>
        <span className="field-hint">After this the link can no longer be opened.</span>
      </div>
      <div className="field">
        <span className="field-label">Session length after opening</span>
        <div className="row" style={{ alignItems: 'flex-start' }}>
          <Field label="Session length" hideLabel error={formState.errors.sessionAmount?.message}>
            <input className="input" style={{ width: 100 }} inputMode="numeric" {...register('sessionAmount', { valueAsNumber: true })} />
          </Field>
          {unitSelect('sessionUnit', 'Session length unit')}
        </div>
      </div>
    </FormModal>
  );
}
