import { DurationUnitOptions } from '@/components/ui/duration-unit-options';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
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
import i18n from '@/lib/i18n';
import { useCanWrite } from '@/lib/api/system';
import { formatDateTime, formatDuration, formatRelative } from '@/lib/format';
import { useCreateSharedLink, useRevokeSharedLink, useSharedLinks } from '../api/security';
import { linkValidity } from './link-validity';
import { QrCode } from './qr-code';

const statusTone: Record<SharedLinkStatus, Tone> = {
  active: 'success',
  used: 'info',
  expired: 'neutral',
  revoked: 'danger',
  locked: 'danger',
};

/** Wrong PINs or passwords after which a link locks (the server's LinkPINMaxFailures). */
const MAX_WRONG = 10;


type LinkKey = 'number' | 'positive' | 'max200' | 'pathSlash' | 'pathOnly' | 'pin' | 'password';
const tr = (key: LinkKey) => i18n.t(`forward-auth:links.schema.${key}`);
const msg = (key: LinkKey) => ({ error: () => tr(key) });

const schema = z.object({
  lifetimeAmount: z.number(msg('number')).positive(msg('positive')),
  lifetimeUnit: z.number(),
  sessionAmount: z.number(msg('number')).positive(msg('positive')),
  sessionUnit: z.number(),
  note: z.string().trim().max(200, msg('max200')),
  path: z
    .string()
    .trim()
    .refine((v) => v === '' || v.startsWith('/'), msg('pathSlash'))
    .refine((v) => !/[?#\s]/.test(v), msg('pathOnly')),
  secret: z.enum(['none', 'pin', 'password']),
  pin: z.string(),
  password: z.string(),
}).superRefine((v, ctx) => {
  if (v.secret === 'pin' && !/^\d{4,12}$/.test(v.pin)) ctx.addIssue({ code: 'custom', path: ['pin'], message: tr('pin') });
  if (v.secret === 'password' && (v.password.length < 8 || v.password.length > 128)) ctx.addIssue({ code: 'custom', path: ['password'], message: tr('password') });
});
type Values = z.infer<typeof schema>;

/** The service's links: made and revoked at once (they are not part of the protection form). */
export function SharedLinksCard({ serviceId, enabled }: { serviceId: string; enabled: boolean }) {
  const { t } = useTranslation('forward-auth');
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
      header: t('links.columns.note'),
      cell: (l) => (
        <div className="stack-sm" style={{ gap: 0 }}>
          <span>
            {l.note || <span className="faint">{t('links.noNote')}</span>}
            {l.challenge && l.challenge !== 'none' ? (
              <>
                {' '}
                <Badge icon="lock">{t(`links.secret.${l.challenge}`)}</Badge>
              </>
            ) : null}
          </span>
          <span className="small muted">
            {l.path && l.path !== '/' ? (
              <Trans t={t} i18nKey="links.createdOpens" values={{ when: formatRelative(l.createdAt), path: l.path }} components={{ path: <span className="mono" /> }} />
            ) : (
              t('links.created', { when: formatRelative(l.createdAt) })
            )}
          </span>
        </div>
      ),
    },
    {
      id: 'status',
      header: t('links.columns.status'),
      cell: (l) => {
        const tone = statusTone[l.status] ?? ('neutral' as Tone);
        const label = l.status in statusTone ? t(`links.status.${l.status}`) : l.status;
        const tries = l.failedAttempts
          ? l.challenge === 'password'
            ? t('links.wrongPasswords', { count: l.failedAttempts })
            : t('links.wrongPins', { count: l.failedAttempts })
          : '';
        return (
          <span className="stack-sm" style={{ gap: 0 }}>
            <Badge tone={tone}>{label}</Badge>
            {tries ? <span className="small muted">{tries}</span> : null}
          </span>
        );
      },
    },
    {
      id: 'validity',
      header: t('links.columns.validity'),
      className: 'small nowrap',
      cellProps: (l) => ({ title: linkValidity(l).title, 'data-testid': 'link-validity' }),
      cell: (l) => linkValidity(l).text,
    },
    { id: 'session', header: t('links.columns.session'), className: 'small nowrap', sortValue: (l) => l.sessionSeconds, cell: (l) => formatDuration(l.sessionSeconds) },
    actionsColumn((l) =>
      canWrite && (l.status === 'active' || l.status === 'used' || l.status === 'locked') ? (
        <Button size="sm" variant="ghost" icon="x" onClick={() => setRevoking(l)} aria-label={t('links.revokeLabel', { name: l.note || l.id })}>
          {t('links.revoke')}
        </Button>
      ) : null,
    ),
  ];
  return (
    <Card>
      <CardHeader
        title={t('links.title')}
        description={t('links.description')}
        actions={
          <>
            {canWrite ? (
              <Button variant="primary" size="sm" icon="plus" disabled={!enabled} onClick={() => setCreating(true)}>
                {t('links.new')}
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
              <EmptyState icon="link" title={t('links.emptyTitle')}>
                {!canWrite ? null : enabled ? t('links.emptyBody') : t('links.emptyOff')}
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
        title={t('links.ready')}
        description={t('links.readyDescription')}
        footer={
          <Button variant="primary" onClick={() => setCreated(null)}>
            {t('links.done')}
          </Button>
        }
      >
        {created?.url ? (
          <div className="stack" style={{ alignItems: 'center' }}>
            <QrCode value={created.url} label={t('links.qr')} />
            <div className="link-box" style={{ width: '100%' }}>
              <label htmlFor="shared-url" className="sr-only">
                {t('links.url')}
              </label>
              <input id="shared-url" className="input" readOnly value={created.url} onFocus={(e) => e.currentTarget.select()} data-testid="shared-link-url" />
              <CopyButton text={created.url} size="md" />
            </div>
            <p className="muted small" style={{ textAlign: 'center' }}>
              {t('links.validUntil', { date: formatDateTime(created.expiresAt), session: formatDuration(created.sessionSeconds) })}
            </p>
            {created.challenge && created.challenge !== 'none' ? (
              <div style={{ width: '100%' }}>
                <Alert tone="info" title={created.challenge === 'pin' ? t('links.asksPin') : t('links.asksPassword')}>
                  {created.challenge === 'pin' ? t('links.sendPin', { max: MAX_WRONG }) : t('links.sendPassword', { max: MAX_WRONG })}
                </Alert>
              </div>
            ) : null}
            {created.warnings?.length ? (
              <div style={{ width: '100%' }}>
                <Alert tone="warning" title={t('links.mayNotOpen')}>
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
          <p className="muted">{t('links.noUrl')}</p>
        )}
      </Modal>
      <ConfirmDialog
        open={!!revoking}
        title={t('links.revokeTitle')}
        message={t('links.revokeMessage')}
        confirmLabel={t('links.revokeConfirm')}
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
  const { t } = useTranslation('forward-auth');
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
  const lifetimeUnitSelect = unitSelect('lifetimeUnit', t('links.lifetimeUnit'));
  const sessionUnitSelect = unitSelect('sessionUnit', t('links.sessionUnit'));
  return (
    <FormModal
      open={open}
      onClose={onClose}
      form={form}
      id="link-form"
      title={t('links.newTitle')}
      submitLabel={t('links.create')}
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
      <Field label={t('links.note')} optional error={formState.errors.note?.message} hint={t('links.noteHint')}>
        <input className="input" placeholder={t('links.notePlaceholder')} data-autofocus {...register('note')} />
      </Field>
      <Field label={t('links.path')} optional error={formState.errors.path?.message} hint={t('links.pathHint')}>
        <input className="input mono" placeholder={t('links.pathPlaceholder')} autoCapitalize="off" spellCheck={false} {...register('path')} />
      </Field>
      <Field label={t('links.ask')} hint={t('links.askHint')}>
        <select className="select" {...register('secret')}>
          <option value="none">{t('links.askNone')}</option>
          <option value="pin">{t('links.askPin')}</option>
          <option value="password">{t('links.askPassword')}</option>
        </select>
      </Field>
      {secret === 'pin' ? (
        <div className="input-row">
          <Field label={t('links.secret.pin')} error={formState.errors.pin?.message} hint={t('links.pinHint')}>
            <input className="input mono" inputMode="numeric" autoComplete="off" style={{ width: 180 }} {...register('pin')} />
          </Field>
          <Button variant="ghost" icon="refresh" onClick={() => form.setValue('pin', randomPin(), { shouldDirty: true, shouldValidate: true })}>
            {t('links.suggest')}
          </Button>
        </div>
      ) : null}
      {secret === 'password' ? (
        <Field label={t('links.linkPassword')} error={formState.errors.password?.message} hint={t('links.passwordHint')}>
          <input className="input" autoComplete="new-password" {...register('password')} />
        </Field>
      ) : null}
      <div className="field">
        <span className="field-label">{t('links.validFor')}</span>
        <div className="row" style={{ alignItems: 'flex-start' }}>
          <Field label={t('links.lifetime')} hideLabel error={formState.errors.lifetimeAmount?.message}>
            <input className="input" style={{ width: 100 }} inputMode="numeric" {...register('lifetimeAmount', { valueAsNumber: true })} />
          </Field>
          {lifetimeUnitSelect}
        </div>
        <span className="field-hint">{t('links.lifetimeHint')}</span>
      </div>
      <div className="field">
        <span className="field-label">{t('links.sessionAfter')}</span>
        <div className="row" style={{ alignItems: 'flex-start' }}>
          <Field label={t('links.session')} hideLabel error={formState.errors.sessionAmount?.message}>
            <input className="input" style={{ width: 100 }} inputMode="numeric" {...register('sessionAmount', { valueAsNumber: true })} />
          </Field>
          {sessionUnitSelect}
        </div>
      </div>
    </FormModal>
  );
}
