import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import i18n from '@/lib/i18n';
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
  if (f.totp) parts.push(i18n.t('people:factors.totp'));
  if (f.passkeys) parts.push(i18n.t('people:factors.passkeys', { count: f.passkeys }));
  return parts.length ? parts.join(', ') : i18n.t('people:factors.none');
}

export function PeoplePage() {
  const { t } = useTranslation(['people', 'common']);
  const me = useMe();
  const canWrite = useCanWrite();
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [offset, setOffset] = useState(0);
  // The list asks the server once typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => {
      setQ(search.trim());
      setOffset(0);
    }, 300);
    return () => clearTimeout(timer);
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
      header: t('list.person'),
      cell: (p) => (
        <div className="stack" style={{ gap: 2 }}>
          <span>
            <strong>{p.username}</strong> {p.id === myId ? <span className="small muted">{t('list.you')}</span> : null}
          </span>
          {p.displayName || p.email ? (
            <span className="small muted">{[p.displayName, p.email].filter(Boolean).join(' · ')}</span>
          ) : null}
        </div>
      ),
    },
    {
      id: 'role',
      header: t('form.panelRole'),
      cell: (p) => <Badge tone={p.panelRole === 'admin' ? 'primary' : 'neutral'}>{panelRoleLabel(p.panelRole)}</Badge>,
    },
    {
      id: 'groups',
      header: t('form.groups'),
      cell: (p) =>
        p.groups.length ? (
          <div className="row" style={{ flexWrap: 'wrap', gap: 4 }}>
            {p.groups.map((g) => (
              <Badge key={g.id}>{g.name}</Badge>
            ))}
          </div>
        ) : (
          <span className="faint">{t('list.none')}</span>
        ),
    },
    {
      id: 'status',
      header: t('common:words.status'),
      cell: (p) => (p.enabled ? <Badge tone="success">{t('common:words.enabled')}</Badge> : <Badge tone="danger">{t('common:words.disabled')}</Badge>),
    },
    { id: 'factors', header: t('list.secondFactor'), className: 'small', cell: (p) => factorsText(p) },
    {
      id: 'lastSignIn',
      header: t('list.lastSignIn'),
      className: 'small',
      cell: (p) => (p.lastSignInAt ? <span title={formatDateTime(p.lastSignInAt)}>{formatRelative(p.lastSignInAt)}</span> : <span className="faint">{t('list.noneOpen')}</span>),
    },
    actionsColumn((p) => (
      <>
        {canWrite ? (
          <Button size="sm" variant="ghost" icon="edit" iconOnly onClick={() => setEditing(p)} aria-label={t('list.edit', { name: p.username })} title={t('common:actions.edit')} />
        ) : null}
        <Button size="sm" variant="ghost" icon="logout" iconOnly onClick={() => setSessions(p)} aria-label={t('sessions.title', { name: p.username })} title={t('list.sessions')} />
        {canWrite ? (
          <>
            {p.enabled ? (
              <Button size="sm" variant="ghost" icon="pause" iconOnly onClick={() => setDisabling(p)} aria-label={t('list.disable', { name: p.username })} title={t('list.disableShort')} />
            ) : (
              <Button size="sm" variant="ghost" icon="power" iconOnly onClick={() => setEnabled(p, true)} aria-label={t('list.enable', { name: p.username })} title={t('list.enableShort')} />
            )}
            <Button size="sm" variant="ghost" icon="lock" iconOnly onClick={() => setPassword(p)} aria-label={t('list.setPassword', { name: p.username })} title={t('list.setPasswordShort')} />
            <Button
              size="sm"
              variant="ghost"
              icon="shield"
              disabled={!p.factors.totp && !p.factors.passkeys && !p.factors.recoveryCodes}
              onClick={() => setResetting(p)}
              aria-label={t('list.reset2fa', { name: p.username })}
              title={t('list.reset2faShort')}
              iconOnly
            />
            <Button size="sm" variant="ghost" icon="trash" iconOnly onClick={() => setDeleting(p)} aria-label={t('list.remove', { name: p.username })} title={t('common:actions.remove')} />
          </>
        ) : null}
      </>
    )),
  ];

  return (
    <>
      <PageHeader
        title={t('page.title')}
        description={t('page.description')}
        actions={
          canWrite ? (
            <div className="row" style={{ gap: 8 }}>
              <Button icon="plus" onClick={() => setInviting(true)}>
                {t('page.invite')}
              </Button>
              <Button variant="primary" icon="plus" onClick={() => setCreating(true)}>
                {t('page.add')}
              </Button>
            </div>
          ) : null
        }
      />
      {refusal ? (
        <div style={{ marginBottom: 16 }}>
          <Alert tone="danger" title={t('page.notChanged')}>
            {refusal}
          </Alert>
        </div>
      ) : null}
      {people.isError ? <ErrorState error={people.error} onRetry={() => people.refetch()} /> : null}
      <Card>
        <div className="card-body row" style={{ justifyContent: 'space-between', flexWrap: 'wrap' }}>
          <label className="row" style={{ gap: 8, flex: '1 1 260px' }}>
            <span className="sr-only">{t('page.search')}</span>
            <input className="input" type="search" placeholder={t('page.searchPlaceholder')} value={search} onChange={(e) => setSearch(e.target.value)} />
          </label>
          <span className="small muted">{t('page.count', { count: total })}</span>
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
                <EmptyState icon="user" title={q ? t('page.noMatch') : t('page.empty')}>
                  {q ? t('page.noMatchText') : t('page.emptyText')}
                </EmptyState>
              )
            }
          />
        )}
        {total > PEOPLE_PAGE_SIZE ? (
          <div className="card-body row" style={{ justifyContent: 'flex-end' }}>
            <Button size="sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PEOPLE_PAGE_SIZE))}>
              {t('common:actions.previous')}
            </Button>
            <span className="small muted">
              {t('page.range', { from: offset + 1, to: Math.min(offset + PEOPLE_PAGE_SIZE, total), total })}
            </span>
            <Button size="sm" disabled={offset + PEOPLE_PAGE_SIZE >= total} onClick={() => setOffset(offset + PEOPLE_PAGE_SIZE)}>
              {t('common:actions.next')}
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
        title={t('confirm.disable.title', { name: disabling?.username ?? t('confirm.thisPerson') })}
        message={t('confirm.disable.message')}
        confirmLabel={t('list.disableShort')}
        danger
        loading={update.isPending}
        onCancel={() => setDisabling(null)}
        onConfirm={() => disabling && setEnabled(disabling, false)}
      />
      <ConfirmDialog
        open={!!resetting}
        title={t('confirm.reset.title', { name: resetting?.username ?? t('confirm.thisPerson') })}
        message={t('confirm.reset.message')}
        confirmLabel={t('confirm.reset.confirm')}
        danger
        loading={reset2fa.isPending}
        onCancel={() => setResetting(null)}
        onConfirm={() => resetting && reset2fa.mutate(resetting.id, { onSettled: () => setResetting(null) })}
      />
      <ConfirmDialog
        open={!!deleting}
        title={t('confirm.remove.title', { name: deleting?.username ?? t('confirm.thisPerson') })}
        message={t('confirm.remove.message')}
        confirmLabel={t('confirm.remove.confirm')}
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
