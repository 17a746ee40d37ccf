import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import i18n from '@/lib/i18n';
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
import { panelRoleChoices, panelRoleLabel, personFields } from './person-dialogs';

const inviteSchema = z
  .object({
    ...personFields,
    delivery: z.enum(['link', 'email']),
    expiresInDays: z.coerce
      .number()
      .int()
      .min(1, { error: () => i18n.t('people:invite.atLeastDay') })
      .max(30, { error: () => i18n.t('people:invite.atMostDays', { max: 30 }) }),
  })
  .refine((v) => v.delivery !== 'email' || v.email !== '', { path: ['email'], error: () => i18n.t('people:invite.emailNeeded') });
type InviteValues = z.input<typeof inviteSchema>;
const emptyInvite: InviteValues = { username: '', displayName: '', email: '', panelRole: 'none', groups: [], delivery: 'link', expiresInDays: 7 };
const known = (p: string) => ['username', 'displayName', 'email', 'panelRole', 'delivery'].includes(p) || p.startsWith('groups');

/** Invites a person by link or e-mail; the link is shown once afterwards. */
export function InviteDialog({ open, groups, onClose }: { open: boolean; groups: Group[]; onClose: () => void }) {
  const { t } = useTranslation('people');
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
        title={t('invite.title')}
        description={t('invite.description')}
        submitLabel={t('page.invite')}
        errorTitle={t('invite.notInvited')}
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
          <Field label={t('form.username')} error={errors.username?.message}>
            <input className="input" data-autofocus autoCapitalize="off" autoComplete="off" spellCheck={false} {...register(`username`)} />
          </Field>
          <Field label={t('form.displayName')} optional error={errors.displayName?.message}>
            <input className="input" autoComplete="off" {...register(`displayName`)} />
          </Field>
        </div>
        <Field label={t('form.email')} optional error={errors.email?.message}>
          <input className="input" type="email" autoComplete="off" spellCheck={false} {...register(`email`)} />
        </Field>
        <Field label={t('invite.delivery')} error={errors.delivery?.message}>
          <select className="select" {...register(`delivery`)}>
            <option value="link">{t('invite.byLink')}</option>
            <option value="email">{t('invite.byEmail')}</option>
          </select>
        </Field>
        <div className="grid-2">
          <Field label={t('form.panelRole')} error={errors.panelRole?.message}>
            <select className="select" {...register(`panelRole`)}>
              {panelRoleChoices.map((r) => (
                <option key={r} value={r}>
                  {panelRoleLabel(r)}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('invite.days')} error={errors.expiresInDays?.message}>
            <input className="input" type="number" min={1} max={30} {...register(`expiresInDays`)} />
          </Field>
        </div>
        {groups.length ? (
          <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0 }}>
            <legend className="label">{t('form.groups')}</legend>
            <div className="row" style={{ flexWrap: 'wrap', gap: 12 }}>
              {groups.map((g) => (
                <label key={g.id} className="row" style={{ gap: 6 }}>
                  <input type="checkbox" value={g.id} {...register(`groups`)} /> {g.name}
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}
      </FormModal>
      <SecretOnceDialog value={created?.link ?? null} onClose={() => setCreated(null)} title={t('invite.ready')} label={t('invite.link')}>
        {created?.mailed ? (
          <p>{t('invite.mailed', { email: created.invitation.email })}</p>
        ) : (
          <p>{t('invite.sendLink', { name: created?.invitation.username ?? '' })}</p>
        )}
      </SecretOnceDialog>
    </>
  );
}

const stateTone: Record<Invitation['state'], Tone> = { pending: 'info', used: 'success', expired: 'neutral', revoked: 'warning' };

/** The invitations with their state; pending ones can be withdrawn. */
export function InvitationsCard({ canWrite }: { canWrite: boolean }) {
  const { t } = useTranslation('people');
  const list = useInvitations();
  const revoke = useRevokeInvitation();
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const columns: Column<Invitation>[] = [
    { id: 'person', header: t('list.person'), cell: (i) => <span>{i.username}{i.email ? <span className="small muted"> · {i.email}</span> : null}</span> },
    { id: 'state', header: t('invitations.state'), cell: (i) => <Badge tone={stateTone[i.state]}>{t(`invitations.states.${i.state}`)}</Badge> },
    {
      id: 'invited',
      header: t('invitations.invited'),
      cell: (i) => (
        <span className="small">{i.createdBy ? t('invitations.invitedBy', { when: formatDateTime(i.createdAt), by: i.createdBy }) : formatDateTime(i.createdAt)}</span>
      ),
    },
    { id: 'link-works-until', header: t('invitations.until'), cell: (i) => <span className="small">{formatDateTime(i.expiresAt)}</span> },
    actionsColumn((i) =>
      canWrite && i.state === 'pending' ? (
        <Button size="sm" variant="ghost" icon="trash" iconOnly onClick={() => setRevoking(i)} aria-label={t('invitations.withdrawNamed', { name: i.username })} title={t('invitations.withdraw')} />
      ) : null,
    ),
  ];
  return (
    <Card>
      <div className="card-body">
        <h2 style={{ fontSize: '1.05rem', margin: 0 }}>{t('invitations.title')}</h2>
      </div>
      {list.isError ? <ErrorState error={list.error} onRetry={() => list.refetch()} /> : null}
      {list.isPending ? (
        <LoadingRows />
      ) : (
        <DataTable
          data={list.data ?? []}
          rowKey={(i) => i.id}
          columns={columns}
          empty={
            list.isError ? undefined : (
              <EmptyState icon="user" title={t('invitations.empty')}>
                {t('invitations.emptyText')}
              </EmptyState>
            )
          }
        />
      )}
      <ConfirmDialog
        open={!!revoking}
        title={t('invitations.confirmTitle', { name: revoking?.username ?? t('confirm.thisPerson') })}
        message={t('invitations.confirmMessage')}
        confirmLabel={t('invitations.withdraw')}
        danger
        loading={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) })}
      />
    </Card>
  );
}
