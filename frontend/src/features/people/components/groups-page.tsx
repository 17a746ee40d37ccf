import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import i18n from '@/lib/i18n';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { Field } from '@/components/ui/field';
import { FormModal } from '@/components/ui/form-modal';
import { ConfirmDialog, Modal } from '@/components/ui/modal';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { useCanWrite } from '@/lib/api/system';
import type { Group } from '@/lib/api-types';
import { useAddMember, useCreateGroup, useDeleteGroup, useGroups, usePeople, useRemoveMember, useUpdateGroup } from '../api/people';

const groupSchema = z.object({
  // The same shape the server checks (internal/people/validate.go).
  name: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/, { error: () => i18n.t('people:schema.groupName') }),
  description: z.string().trim().max(500, { error: () => i18n.t('people:schema.atMost', { max: 500 }) }),
});
type GroupValues = z.infer<typeof groupSchema>;

function GroupDialog({ open, target, onClose }: { open: boolean; target: Group | null; onClose: () => void }) {
  const { t } = useTranslation(['people', 'common']);
  const create = useCreateGroup();
  const update = useUpdateGroup();
  const values = { name: target?.name ?? '', description: target?.description ?? '' };
  const form = useForm<GroupValues>({ resolver: zodResolver(groupSchema), defaultValues: values });
  const { reset } = form;
  useEffect(() => {
    if (open) reset({ name: target?.name ?? '', description: target?.description ?? '' });
  }, [open, target, reset]);
  const errors = form.formState.errors;
  return (
    <FormModal
      open={open}
      onClose={onClose}
      form={form}
      id="group-form"
      resetValues={values}
      title={target ? t('groups.editTitle', { name: target.name }) : t('groups.add')}
      submitLabel={target ? t('common:actions.save') : t('groups.add')}
      showRequestErrors
      serverErrors={{ known: (p) => p === 'name' || p === 'description' }}
      onSubmit={async (v) => {
        if (target) await update.mutateAsync({ id: target.id, ...v });
        else await create.mutateAsync(v);
        onClose();
      }}
    >
      <Field label={t('common:words.name')} error={errors.name?.message}>
        <input className="input" data-autofocus autoComplete="off" {...form.register(`name`)} />
      </Field>
      <Field label={t('common:words.description')} optional error={errors.description?.message}>
        <textarea className="input" rows={3} {...form.register(`description`)} />
      </Field>
    </FormModal>
  );
}

/** A group's members, with add and remove for those who may write. */
function MembersDialog({ target, canWrite, onClose }: { target: Group | null; canWrite: boolean; onClose: () => void }) {
  const { t } = useTranslation(['people', 'common']);
  const people = usePeople('', 0);
  const add = useAddMember();
  const remove = useRemoveMember();
  const [personId, setPersonId] = useState('');
  const members = target?.members ?? [];
  const candidates = (people.data?.items ?? []).filter((p) => !members.some((m) => m.id === p.id));
  return (
    <Modal open={!!target} onClose={onClose} title={t('groups.membersOf', { name: target?.name ?? '' })} description={t('groups.membersDescription')}>
      <div className="stack">
        {canWrite ? (
          <form
            className="row"
            onSubmit={(e) => {
              e.preventDefault();
              if (target && personId) add.mutate({ id: target.id, personId }, { onSuccess: () => setPersonId('') });
            }}
          >
            <label className="sr-only" htmlFor="member-add">
              {t('groups.personToAdd')}
            </label>
            <select id="member-add" className="select" value={personId} onChange={(e) => setPersonId(e.target.value)}>
              <option value="">{t('groups.choosePerson')}</option>
              {candidates.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.displayName ? `${p.displayName} (${p.username})` : p.username}
                </option>
              ))}
            </select>
            <Button type="submit" icon="plus" disabled={!personId} loading={add.isPending}>
              {t('common:actions.add')}
            </Button>
          </form>
        ) : null}
        {members.length ? (
          <ul className="stack" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {members.map((m) => (
              <li key={m.id} className="row" style={{ justifyContent: 'space-between' }}>
                <span>
                  <strong>{m.username}</strong> {m.displayName ? <span className="small muted">{m.displayName}</span> : null}
                </span>
                {canWrite ? (
                  <Button size="sm" variant="ghost" icon="x" onClick={() => target && remove.mutate({ id: target.id, personId: m.id })} aria-label={t('groups.removeMember', { name: m.username, group: target?.name ?? '' })}>
                    {t('common:actions.remove')}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{t('groups.noMembers')}</p>
        )}
      </div>
    </Modal>
  );
}

export function GroupsPage() {
  const { t } = useTranslation(['people', 'common']);
  const groups = useGroups();
  const canWrite = useCanWrite();
  const del = useDeleteGroup();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Group | null>(null);
  const [membersOf, setMembersOf] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Group | null>(null);
  const list = groups.data ?? [];
  // The open members dialog follows the list as it refreshes.
  const members = list.find((g) => g.id === membersOf) ?? null;

  const columns: Column<Group>[] = [
    {
      id: 'name',
      header: t('groups.group'),
      sortValue: (g) => g.name.toLowerCase(),
      cell: (g) => (
        <div className="stack" style={{ gap: 2 }}>
          <strong>{g.name}</strong>
          {g.description ? <span className="small muted">{g.description}</span> : null}
        </div>
      ),
    },
    {
      id: 'members',
      header: t('groups.members'),
      sortValue: (g) => g.members.length,
      cell: (g) =>
        g.members.length ? (
          <div className="row" style={{ flexWrap: 'wrap', gap: 4 }}>
            {g.members.slice(0, 8).map((m) => (
              <Badge key={m.id}>{m.username}</Badge>
            ))}
            {g.members.length > 8 ? <span className="small muted">{t('groups.andMore', { count: g.members.length - 8 })}</span> : null}
          </div>
        ) : (
          <span className="faint">{t('list.none')}</span>
        ),
    },
    actionsColumn((g) => (
      <>
        <Button size="sm" variant="ghost" icon="users" onClick={() => setMembersOf(g.id)} aria-label={t('groups.membersOf', { name: g.name })}>
          {t('groups.members')}
        </Button>
        {canWrite ? (
          <>
            <Button size="sm" variant="ghost" icon="edit" onClick={() => setEditing(g)} aria-label={t('list.edit', { name: g.name })}>
              {t('common:actions.edit')}
            </Button>
            <Button size="sm" variant="ghost" icon="trash" iconOnly onClick={() => setDeleting(g)} aria-label={t('list.remove', { name: g.name })} title={t('common:actions.remove')} />
          </>
        ) : null}
      </>
    )),
  ];

  return (
    <>
      <PageHeader
        title={t('groups.title')}
        description={t('groups.description')}
        actions={
          canWrite ? (
            <Button variant="primary" icon="plus" onClick={() => setCreating(true)}>
              {t('groups.add')}
            </Button>
          ) : null
        }
      />
      {groups.isError ? <ErrorState error={groups.error} onRetry={() => groups.refetch()} /> : null}
      <Card>
        {groups.isPending ? (
          <LoadingRows />
        ) : (
          <DataTable
            data={list}
            rowKey={(g) => g.id}
            columns={columns}
            empty={
              groups.isError ? undefined : (
                <EmptyState icon="users" title={t('groups.empty')}>
                  {t('groups.emptyText')}
                </EmptyState>
              )
            }
          />
        )}
      </Card>
      <GroupDialog open={creating || !!editing} target={editing} onClose={() => (setCreating(false), setEditing(null))} />
      <MembersDialog target={members} canWrite={canWrite} onClose={() => setMembersOf(null)} />
      <ConfirmDialog
        open={!!deleting}
        title={t('groups.removeTitle', { name: deleting?.name ?? '' })}
        message={t('groups.removeMessage')}
        confirmLabel={t('groups.removeConfirm')}
        danger
        loading={del.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && del.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </>
  );
}
