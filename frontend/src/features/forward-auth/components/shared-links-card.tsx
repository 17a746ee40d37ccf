import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
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
import { Switch } from '@/components/ui/switch';
import type { SecurityConfig, SharedLink, SharedLinkStatus } from '@/lib/api-types';
import { useCanWrite } from '@/lib/api/system';
import { durationUnits, formatDateTime, formatDuration, formatRelative } from '@/lib/format';
import { useCreateSharedLink, useRevokeSharedLink, useSaveSecurityConfig, useSharedLinks } from '../api/security';
import { linkValidity } from './link-validity';
import { QrCode } from './qr-code';

type Shared = Extract<SecurityConfig, { type: 'shared_links' }>;

const statusTone: Record<SharedLinkStatus, { tone: Tone; label: string }> = {
  active: { tone: 'success', label: 'Active' },
  used: { tone: 'info', label: 'Used' },
  expired: { tone: 'neutral', label: 'Expired' },
  revoked: { tone: 'danger', label: 'Revoked' },
};

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
});
type Values = z.infer<typeof schema>;

export function SharedLinksCard({ serviceId, config }: { serviceId: string; config?: Shared }) {
  const links = useSharedLinks(serviceId);
  const save = useSaveSecurityConfig(serviceId);
  const revoke = useRevokeSharedLink(serviceId);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<SharedLink | null>(null);
  const [revoking, setRevoking] = useState<SharedLink | null>(null);
  // The switch is part of the card's form, like every switch on the service page: it
  // takes effect on Save. Links can be created once shared links are saved as on.
  const enabled = config?.enabled ?? false;
  const [draft, setDraft] = useState(enabled);
  useEffect(() => setDraft(enabled), [enabled]);
  const list = links.data ?? [];
  const canWrite = useCanWrite();
  const columns: Column<SharedLink>[] = [
    {
      id: 'note',
      header: 'Note',
      cell: (l) => (
        <div className="stack-sm" style={{ gap: 0 }}>
          <span>{l.note || <span className="faint">No note</span>}</span>
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
        return <Badge tone={st.tone}>{st.label}</Badge>;
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
      canWrite && (l.status === 'active' || l.status === 'used') ? (
        <Button size="sm" variant="ghost" icon="x" onClick={() => setRevoking(l)} aria-label={`Revoke link ${l.note || l.id}`}>
          Revoke
        </Button>
      ) : null,
    ),
  ];
  return (
    <Card>
      <CardHeader
        title="Shared links"
        description="One-time links that let a guest in without an account. Opening a link starts a session of the chosen length."
        actions={
          <>
            {enabled ? <Badge tone="success" icon="link">On</Badge> : <Badge icon="power">Off</Badge>}
            {canWrite ? (
              <Button variant="primary" size="sm" icon="plus" disabled={!enabled} onClick={() => setCreating(true)}>
                New link
              </Button>
            ) : null}
          </>
        }
      />
      <div className="card-body stack">
        <Switch
          checked={draft}
          disabled={!canWrite || save.isPending}
          onChange={(e) => setDraft(e.target.checked)}
          label={draft ? 'Shared links are accepted' : 'Accept shared links for this service'}
        />
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
                {!canWrite ? null : enabled ? 'Create a link and send it, or show its QR code.' : 'Turn shared links on to create one.'}
              </EmptyState>
            }
          />
        )}
      </div>
      {canWrite ? (
        <div className="card-footer">
          <Button variant="primary" onClick={() => save.mutate({ type: 'shared_links', enabled: draft })} loading={save.isPending} disabled={draft === enabled}>
            Save shared links
          </Button>
        </div>
      ) : null}
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

function CreateLinkModal({ serviceId, open, onClose, onCreated }: { serviceId: string; open: boolean; onClose: () => void; onCreated: (l: SharedLink) => void }) {
  const create = useCreateSharedLink(serviceId);
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { lifetimeAmount: 1, lifetimeUnit: 86400, sessionAmount: 1, sessionUnit: 86400, note: '', path: '' },
  });
  const { register, formState } = form;
  const unitSelect = (name: 'lifetimeUnit' | 'sessionUnit', label: string) => (
    <Field label={label} hideLabel>
      <select className="select" style={{ width: 120 }} {...register(name, { valueAsNumber: true })}>
        {durationUnits.map((u) => (
          <option key={u.seconds} value={u.seconds}>{u.label}</option>
        ))}
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
