import { useEffect, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { ConfirmDialog } from '@/components/ui/modal';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { errorMessage } from '@/lib/api-client';
import { useCanWrite, useMe } from '@/lib/api/system';
import type { Person } from '@/lib/api-types';
import { asSentence, formatDateTime, formatRelative } from '@/lib/format';
import { PEOPLE_PAGE_SIZE, useDeletePerson, useGroups, usePeople, useResetSecondFactor, useUpdatePerson } from '../api/people';
import { InvitationsCard, InviteDialog } from './invitations';
import { RegistrationCard } from './registration';
import { panelRoleLabel, PersonDialog, SetPasswordDialog } from './person-dialogs';
import { PersonSessionsDialog } from './person-sessions';

/** What a person signs in with, in words: never a secret. */
export function factorsText(p: Person): string {
  const f = p.factors;
  const parts: string[] = [];
  if (f.totp) parts.push('authenticator app');
  if (f.passkeys) parts.push(f.passkeys === 1 ? '1 passkey' : `${f.passkeys} passkeys`);
  return parts.length ? parts.join(', ') : 'none';
}

export function PeoplePage() {
  const me = useMe();
  const canWrite = useCanWrite();
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [offset, setOffset] = useState(0);
  // The list asks the server once typing pauses.
  useEffect(() => {
    const t = setTimeout(() => {
      setQ(search.trim());
      setOffset(0);
    }, 300);
    return () => clearTimeout(t);
  }, [search]);
  const people = usePeople(q, offset);
  const groups = useGroups();
  const update = useUpdatePerson();
  const del = useDeletePerson();
  const reset2fa = useResetSecondFactor();
  const [editing, setEditing] = useState<Person | null>(null);
  const [creating, setCreating] = useState(false);
  const [inviting, setInviting] = useState(false);
  const [password, setPassword] = useState<Person | null>(null);
  const [sessions, setSessions] = useState<Person | null>(null);
  const [disabling, setDisabling] = useState<Person | null>(null);
  const [deleting, setDeleting] = useState<Person | null>(null);
  const [resetting, setResetting] = useState<Person | null>(null);
  // The server's refusal (the last enabled admin, for one), shown as it words it.
  const [refusal, setRefusal] = useState<string | null>(null);
  const myId = me.data?.user.id;
  const list = people.data?.items ?? [];
  const total = people.data?.total ?? 0;

  const setEnabled = (p: Person, enabled: boolean) => {
    setRefusal(null);
    update.mutate({ id: p.id, enabled }, { onError: (e) => setRefusal(asSentence(errorMessage(e))), onSettled: () => setDisabling(null) });
  };

  const columns: Column<Person>[] = [
    {
      id: 'person',
      header: 'Person',
      cell: (p) => (
        <div className="stack" style={{ gap: 2 }}>
          <span>
            <strong>{p.username}</strong> {p.id === myId ? <span className="small muted">(you)</span> : null}
          </span>
          {p.displayName || p.email ? (
            <span className="small muted">{[p.displayName, p.email].filter(Boolean).join(' · ')}</span>
          ) : null}
        </div>
      ),
    },
    {
      id: 'role',
      header: 'Panel role',
      cell: (p) => <Badge tone={p.panelRole === 'admin' ? 'primary' : 'neutral'}>{panelRoleLabel(p.panelRole)}</Badge>,
    },
    {
      id: 'groups',
      header: 'Groups',
      cell: (p) =>
        p.groups.length ? (
          <div className="row" style={{ flexWrap: 'wrap', gap: 4 }}>
            {p.groups.map((g) => (
              <Badge key={g.id}>{g.name}</Badge>
            ))}
          </div>
        ) : (
          <span className="faint">none</span>
        ),
    },
    { id: 'status', header: 'Status', cell: (p) => (p.enabled ? <Badge tone="success">Enabled</Badge> : <Badge tone="danger">Disabled</Badge>) },
    { id: 'factors', header: 'Second factor', className: 'small', cell: (p) => factorsText(p) },
    {
      id: 'lastSignIn',
      header: 'Last sign-in',
      className: 'small',
      cell: (p) => (p.lastSignInAt ? <span title={formatDateTime(p.lastSignInAt)}>{formatRelative(p.lastSignInAt)}</span> : <span className="faint">none open</span>),
    },
    actionsColumn((p) => (
      <>
        {canWrite ? (
          <Button size="sm" variant="ghost" icon="edit" iconOnly onClick={() => setEditing(p)} aria-label={`Edit ${p.username}`} title="Edit" />
        ) : null}
        <Button size="sm" variant="ghost" icon="logout" iconOnly onClick={() => setSessions(p)} aria-label={`Sessions of ${p.username}`} title="Sessions" />
        {canWrite ? (
          <>
            {p.enabled ? (
              <Button size="sm" variant="ghost" icon="pause" iconOnly onClick={() => setDisabling(p)} aria-label={`Disable ${p.username}`} title="Disable" />
            ) : (
              <Button size="sm" variant="ghost" icon="power" iconOnly onClick={() => setEnabled(p, true)} aria-label={`Enable ${p.username}`} title="Enable" />
            )}
            <Button size="sm" variant="ghost" icon="lock" iconOnly onClick={() => setPassword(p)} aria-label={`Set password of ${p.username}`} title="Set a new password" />
            <Button
              size="sm"
              variant="ghost"
              icon="shield"
              disabled={!p.factors.totp && !p.factors.passkeys && !p.factors.recoveryCodes}
              onClick={() => setResetting(p)}
              aria-label={`Reset the second factor of ${p.username}`}
              title="Reset the second factor"
              iconOnly
            />
            <Button size="sm" variant="ghost" icon="trash" iconOnly onClick={() => setDeleting(p)} aria-label={`Remove ${p.username}`} title="Remove" />
          </>
        ) : null}
      </>
    )),
  ];

  return (
    <>
      <PageHeader
        title="People"
        description="Everyone Gatehouse knows. The panel role says who administers this panel: admins change everything; viewers look at everything except secrets and change nothing."
        actions={
          canWrite ? (
            <div className="row" style={{ gap: 8 }}>
              <Button icon="plus" onClick={() => setInviting(true)}>
                Invite
              </Button>
              <Button variant="primary" icon="plus" onClick={() => setCreating(true)}>
                Add person
              </Button>
            </div>
          ) : null
        }
      />
      {refusal ? (
        <div style={{ marginBottom: 16 }}>
          <Alert tone="danger" title="Not changed">
            {refusal}
          </Alert>
        </div>
      ) : null}
      {people.isError ? <ErrorState error={people.error} onRetry={() => people.refetch()} /> : null}
      <Card>
        <div className="card-body row" style={{ justifyContent: 'space-between', flexWrap: 'wrap' }}>
          <label className="row" style={{ gap: 8, flex: '1 1 260px' }}>
            <span className="sr-only">Search people</span>
            <input className="input" type="search" placeholder="Start of a username, name or e-mail" value={search} onChange={(e) => setSearch(e.target.value)} />
          </label>
          <span className="small muted">{total === 1 ? '1 person' : `${total} people`}</span>
        </div>
        {people.isPending ? (
          <LoadingRows />
        ) : (
          <DataTable
            data={list}
            rowKey={(p) => p.id}
            columns={columns}
            empty={
              people.isError ? undefined : (
                <EmptyState icon="user" title={q ? 'Nobody matches' : 'No people'}>
                  {q ? 'Try another search.' : 'People appear here once added.'}
                </EmptyState>
              )
            }
          />
        )}
        {total > PEOPLE_PAGE_SIZE ? (
          <div className="card-body row" style={{ justifyContent: 'flex-end' }}>
            <Button size="sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PEOPLE_PAGE_SIZE))}>
              Previous
            </Button>
            <span className="small muted">
              {offset + 1}–{Math.min(offset + PEOPLE_PAGE_SIZE, total)} of {total}
            </span>
            <Button size="sm" disabled={offset + PEOPLE_PAGE_SIZE >= total} onClick={() => setOffset(offset + PEOPLE_PAGE_SIZE)}>
              Next
            </Button>
          </div>
        ) : null}
      </Card>
      <div style={{ marginTop: 16 }}>
        <InvitationsCard canWrite={canWrite} />
      </div>
      <div style={{ marginTop: 16 }}>
        <RegistrationCard canWrite={canWrite} groups={groups.data ?? []} />
      </div>
      <InviteDialog open={inviting} groups={groups.data ?? []} onClose={() => setInviting(false)} />
      <PersonDialog open={creating || !!editing} target={editing} groups={groups.data ?? []} onClose={() => (setCreating(false), setEditing(null))} />
      <SetPasswordDialog target={password} onClose={() => setPassword(null)} />
      <PersonSessionsDialog target={sessions} canWrite={canWrite} onClose={() => setSessions(null)} />
      <ConfirmDialog
        open={!!disabling}
        title={`Disable ${disabling?.username ?? 'this person'}?`}
        message="They are signed out everywhere and cannot sign in until enabled again. Their API tokens stop working."
        confirmLabel="Disable"
        danger
        loading={update.isPending}
        onCancel={() => setDisabling(null)}
        onConfirm={() => disabling && setEnabled(disabling, false)}
      />
      <ConfirmDialog
        open={!!resetting}
        title={`Reset the second factor of ${resetting?.username ?? 'this person'}?`}
        message="Their authenticator app, passkeys and recovery codes are removed and they are signed out everywhere. They sign in with their password and set up a second factor again."
        confirmLabel="Reset second factor"
        danger
        loading={reset2fa.isPending}
        onCancel={() => setResetting(null)}
        onConfirm={() => resetting && reset2fa.mutate(resetting.id, { onSettled: () => setResetting(null) })}
      />
      <ConfirmDialog
        open={!!deleting}
        title={`Remove ${deleting?.username ?? 'this person'}?`}
        message="Their sessions, second factors, API tokens and group memberships go with them. This cannot be undone."
        confirmLabel="Remove person"
        danger
        loading={del.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          setRefusal(null);
          del.mutate(deleting.id, { onError: (e) => setRefusal(asSentence(errorMessage(e))), onSettled: () => setDeleting(null) });
        }}
      />
    </>
  );
}
