import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
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
    .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/, '1-64 letters, digits, spaces or . _ -, starting with a letter or digit'),
  description: z.string().trim().max(500, 'At most 500 characters'),
});
type GroupValues = z.infer<typeof groupSchema>;

function GroupDialog({ open, target, onClose }: { open: boolean; target: Group | null; onClose: () => void }) {
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
      title={target ? `Edit ${target.name}` : 'Add group'}
      submitLabel={target ? 'Save' : 'Add group'}
      showRequestErrors
      serverErrors={{ known: (p) => p === 'name' || p === 'description' }}
      onSubmit={async (v) => {
        if (target) await update.mutateAsync({ id: target.id, ...v });
        else await create.mutateAsync(v);
        onClose();
      }}
    >
      <Field label="Name" error={errors.name?.message}>
        <input className="input" data-autofocus autoComplete="off" {...form.register('name')} />
      </Field>
      <Field label="Description" optional error={errors.description?.message}>
        <textarea className="input" rows={3} {...form.register('description')} />
      </Field>
    </FormModal>
  );
}

/** A group's members, with add and remove for those who may write. */
function MembersDialog({ target, canWrite, onClose }: { target: Group | null; canWrite: boolean; onClose: () => void }) {
  const people = usePeople('', 0);
  const add = useAddMember();
  const remove = useRemoveMember();
  const [personId, setPersonId] = useState('');
  const members = target?.members ?? [];
  const candidates = (people.data?.items ?? []).filter((p) => !members.some((m) => m.id === p.id));
  return (
    <Modal open={!!target} onClose={onClose} title={`Members of ${target?.name ?? ''}`} description="Membership decides what a person may reach.">
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
              Person to add
            </label>
            <select id="member-add" className="select" value={personId} onChange={(e) => setPersonId(e.target.value)}>
              <option value="">Choose a person…</option>
              {candidates.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.displayName ? `${p.displayName} (${p.username})` : p.username}
                </option>
              ))}
            </select>
            <Button type="submit" icon="plus" disabled={!personId} loading={add.isPending}>
              Add
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
                  <Button size="sm" variant="ghost" icon="x" onClick={() => target && remove.mutate({ id: target.id, personId: m.id })} aria-label={`Remove ${m.username} from ${target?.name}`}>
                    Remove
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No members yet.</p>
        )}
      </div>
    </Modal>
  );
}

export function GroupsPage() {
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
      header: 'Group',
      sortValue: (g) => g.name.toLowerCase(),
      cell: (g) => (
        <div className="stack" style={{ gap: 2 }}>
          <strong>{g.name}</strong>
          {g.description ? <span className="small muted">{g.description}</span> : null}
          {g.providerName ? (
            <span className="small muted">
              Given by the provider’s group <code>{g.providerName}</code>
            </span>
          ) : null}
        </div>
      ),
    },
    {
      id: 'members',
      header: 'Members',
      sortValue: (g) => g.members.length,
      cell: (g) =>
        g.members.length ? (
          <div className="row" style={{ flexWrap: 'wrap', gap: 4 }}>
            {g.members.slice(0, 8).map((m) => (
              <Badge key={m.id}>{m.username}</Badge>
            ))}
            {g.members.length > 8 ? <span className="small muted">and {g.members.length - 8} more</span> : null}
          </div>
        ) : (
          <span className="faint">none</span>
        ),
    },
    actionsColumn((g) => (
      <>
        <Button size="sm" variant="ghost" icon="users" onClick={() => setMembersOf(g.id)} aria-label={`Members of ${g.name}`}>
          Members
        </Button>
        {canWrite ? (
          <>
            <Button size="sm" variant="ghost" icon="edit" onClick={() => setEditing(g)} aria-label={`Edit ${g.name}`}>
              Edit
            </Button>
            <Button size="sm" variant="ghost" icon="trash" iconOnly onClick={() => setDeleting(g)} aria-label={`Remove ${g.name}`} title="Remove" />
          </>
        ) : null}
      </>
    )),
  ];

  return (
    <>
      <PageHeader
        title="Groups"
        description="Named sets of people. A person may belong to several groups."
        actions={
          canWrite ? (
            <Button variant="primary" icon="plus" onClick={() => setCreating(true)}>
              Add group
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
                <EmptyState icon="users" title="No groups">
                  Groups appear here once added.
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
        title={`Remove the group ${deleting?.name ?? ''}?`}
        message="Its members stay; only the group and their membership go."
        confirmLabel="Remove group"
        danger
        loading={del.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && del.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </>
  );
}
