import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Badge, type Tone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { Field } from '@/components/ui/field';
import { FormModal } from '@/components/ui/form-modal';
import { ConfirmDialog } from '@/components/ui/modal';
import { SecretOnceDialog } from '@/components/ui/secret-once-dialog';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import type { Group, Invitation, InvitationCreated } from '@/lib/api-types';
import { formatDateTime } from '@/lib/format';
import { useCreateInvitation, useInvitations, useRevokeInvitation } from '../api/invitations';
import { panelRoleChoices, personFields } from './person-dialogs';

const inviteSchema = z
  .object({
    ...personFields,
    delivery: z.enum(['link', 'email']),
    expiresInDays: z.coerce.number().int().min(1, 'At least 1 day').max(30, 'At most 30 days'),
  })
  .refine((v) => v.delivery !== 'email' || v.email !== '', { path: ['email'], message: 'Needed to send the invitation by e-mail' });
type InviteValues = z.input<typeof inviteSchema>;
const emptyInvite: InviteValues = { username: '', displayName: '', email: '', panelRole: 'none', groups: [], delivery: 'link', expiresInDays: 7 };
const known = (p: string) => ['username', 'displayName', 'email', 'panelRole', 'delivery'].includes(p) || p.startsWith('groups');

/** Invites a person by link or e-mail; the link is shown once afterwards. */
export function InviteDialog({ open, groups, onClose }: { open: boolean; groups: Group[]; onClose: () => void }) {
  const create = useCreateInvitation();
  const [created, setCreated] = useState<InvitationCreated | null>(null);
  const form = useForm<InviteValues>({ resolver: zodResolver(inviteSchema), defaultValues: emptyInvite });
  const { register, formState, reset } = form;
  const errors = formState.errors;
  useEffect(() => {
    if (open) reset(emptyInvite);
  }, [open, reset]);
  return (
    <>
      <FormModal
        open={open}
        onClose={onClose}
        form={form}
        id="invite-form"
        resetValues={emptyInvite}
        title="Invite a person"
        description="They get a link that works once, where they choose a password or set up a passkey. Until then their account stays disabled."
        submitLabel="Invite"
        errorTitle="Not invited"
        showRequestErrors
        serverErrors={{ known }}
        onSubmit={async (raw) => {
          const v = inviteSchema.parse(raw);
          const out = await create.mutateAsync({
            username: v.username,
            displayName: v.displayName,
            email: v.email,
            panelRole: v.panelRole,
            groups: v.groups,
            delivery: v.delivery,
            expiresInHours: v.expiresInDays * 24,
          });
          onClose();
          setCreated(out);
        }}
      >
        <div className="grid-2">
          <Field label="Username" error={errors.username?.message}>
            <input className="input" data-autofocus autoCapitalize="off" autoComplete="off" spellCheck={false} {...register('username')} />
          </Field>
          <Field label="Display name" optional error={errors.displayName?.message}>
            <input className="input" autoComplete="off" {...register('displayName')} />
          </Field>
        </div>
        <Field label="E-mail" optional error={errors.email?.message}>
          <input className="input" type="email" autoComplete="off" spellCheck={false} {...register('email')} />
        </Field>
        <Field label="Send the invitation" error={errors.delivery?.message}>
          <select className="select" {...register('delivery')}>
            <option value="link">I will share the link myself</option>
            <option value="email">By e-mail (uses the e-mail channel of the notification settings)</option>
          </select>
        </Field>
        <div className="grid-2">
          <Field label="Panel role" error={errors.panelRole?.message}>
            <select className="select" {...register('panelRole')}>
              {panelRoleChoices.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Link works for (days)" error={errors.expiresInDays?.message}>
            <input className="input" type="number" min={1} max={30} {...register('expiresInDays')} />
          </Field>
        </div>
        {groups.length ? (
          <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0 }}>
            <legend className="label">Groups</legend>
            <div className="row" style={{ flexWrap: 'wrap', gap: 12 }}>
              {groups.map((g) => (
                <label key={g.id} className="row" style={{ gap: 6 }}>
                  <input type="checkbox" value={g.id} {...register('groups')} /> {g.name}
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}
      </FormModal>
      <SecretOnceDialog value={created?.link ?? null} onClose={() => setCreated(null)} title="Invitation ready" label="Invitation link">
        {created?.mailed ? <p>It was also e-mailed to {created.invitation.email}.</p> : <p>Send this link to {created?.invitation.username}. It works once.</p>}
      </SecretOnceDialog>
    </>
  );
}

const stateTone: Record<Invitation['state'], Tone> = { pending: 'info', used: 'success', expired: 'neutral', revoked: 'warning' };
const stateLabel: Record<Invitation['state'], string> = { pending: 'Waiting', used: 'Accepted', expired: 'Expired', revoked: 'Withdrawn' };

/** The invitations with their state; pending ones can be withdrawn. */
export function InvitationsCard({ canWrite }: { canWrite: boolean }) {
  const list = useInvitations();
  const revoke = useRevokeInvitation();
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const columns: Column<Invitation>[] = [
    { id: 'person', header: 'Person', cell: (i) => <span>{i.username}{i.email ? <span className="small muted"> · {i.email}</span> : null}</span> },
    { id: 'state', header: 'State', cell: (i) => <Badge tone={stateTone[i.state]}>{stateLabel[i.state]}</Badge> },
    { id: 'invited', header: 'Invited', cell: (i) => <span className="small">{formatDateTime(i.createdAt)}{i.createdBy ? ` by ${i.createdBy}` : ''}</span> },
    { id: 'link-works-until', header: 'Link works until', cell: (i) => <span className="small">{formatDateTime(i.expiresAt)}</span> },
    actionsColumn((i) =>
      canWrite && i.state === 'pending' ? (
        <Button size="sm" variant="ghost" icon="trash" iconOnly onClick={() => setRevoking(i)} aria-label={`Withdraw the invitation of ${i.username}`} title="Withdraw" />
      ) : null,
    ),
  ];
  return (
    <Card>
      <div className="card-body">
        <h2 style={{ fontSize: '1.05rem', margin: 0 }}>Invitations</h2>
      </div>
      {list.isError ? <ErrorState error={list.error} onRetry={() => list.refetch()} /> : null}
      {list.isPending ? (
        <LoadingRows />
      ) : (
        <DataTable
          data={list.data ?? []}
          rowKey={(i) => i.id}
          columns={columns}
          empty={list.isError ? undefined : <EmptyState icon="user" title="No invitations">Invite someone and they choose how to sign in.</EmptyState>}
        />
      )}
      <ConfirmDialog
        open={!!revoking}
        title={`Withdraw the invitation of ${revoking?.username ?? 'this person'}?`}
        message="The link stops working and the account made for it is removed."
        confirmLabel="Withdraw"
        danger
        loading={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) })}
      />
    </Card>
  );
}
