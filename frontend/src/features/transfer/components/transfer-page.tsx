import { useState, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TFunction } from 'i18next';
import { Alert } from '@/components/ui/alert';
import { Icon } from '@/components/ui/icons';
import { Badge, type Tone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader, PageHeader } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { Field } from '@/components/ui/field';
import { ReadOnlyNote } from '@/components/ui/read-only';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useCanWrite } from '@/lib/api/system';
import type { ImportItem, ImportMode, ImportPlan } from '@/lib/api-types';
import type transferEn from '@/locales/en/transfer.json';
import { PASSPHRASE_MIN, hasSealedSecrets, useExport, useImport } from '../api/transfer';

export function TransferPage() {
  const { t } = useTranslation('transfer');
  const canWrite = useCanWrite();
  return (
    <>
      <PageHeader
        title={t('page.title')}
        description={t('page.description')}
      />
      <div className="stack">
        {canWrite ? (
          <>
            <ExportCard />
            <ImportCard />
          </>
        ) : (
          <ReadOnlyNote>{t('page.readOnly')}</ReadOnlyNote>
        )}
      </div>
    </>
  );
}

function ExportCard() {
  const { t } = useTranslation('transfer');
  const exp = useExport();
  const [admins, setAdmins] = useState(false);
  const [secrets, setSecrets] = useState(false);
  const [adminPasswords, setAdminPasswords] = useState(false);
  const [pass, setPass] = useState('');
  const [pass2, setPass2] = useState('');
  const [done, setDone] = useState('');
  const sealed = secrets || adminPasswords;
  const passError = sealed && pass.length > 0 && pass.length < PASSPHRASE_MIN ? t('export.passphraseTooShort', { min: PASSPHRASE_MIN }) : undefined;
  const repeatError = sealed && pass2.length > 0 && pass2 !== pass ? t('export.passphrasesDiffer') : undefined;
  const ready = !sealed || (pass.length >= PASSPHRASE_MIN && pass === pass2);
  const submit = async () => {
    setDone('');
    const name = await exp.mutateAsync({ admins: admins || adminPasswords, secrets, adminPasswords, passphrase: sealed ? pass : undefined }).catch(() => null);
    if (name) setDone(name);
  };
  return (
    <Card>
      <CardHeader
        title={t('export.title')}
        description={t('export.description')}
      />
      <div className="card-body stack">
        <label className="checkbox">
          <input type="checkbox" checked={admins} onChange={(e) => setAdmins(e.target.checked)} />
          <span className="checkbox-text">
            <span>{t('export.people')}</span>
            <span className="field-hint">{t('export.peopleHint')}</span>
          </span>
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={secrets} onChange={(e) => setSecrets(e.target.checked)} />
          <span className="checkbox-text">
            <span>{t('export.secrets')}</span>
            <span className="field-hint">{t('export.secretsHint')}</span>
          </span>
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={adminPasswords} onChange={(e) => setAdminPasswords(e.target.checked)} />
          <span className="checkbox-text">
            <span>{t('export.passwords')}</span>
            <span className="field-hint">{t('export.passwordsHint')}</span>
          </span>
        </label>
        {sealed ? (
          <>
            <Field label={t('export.passphrase')} error={passError} hint={t('export.passphraseHint', { min: PASSPHRASE_MIN })}>
              <input className="input" type="password" autoComplete="new-password" value={pass} onChange={(e) => setPass(e.target.value)} />
            </Field>
            <Field label={t('export.passphraseAgain')} error={repeatError}>
              <input className="input" type="password" autoComplete="new-password" value={pass2} onChange={(e) => setPass2(e.target.value)} />
            </Field>
          </>
        ) : null}
        {exp.isError ? <Alert tone="danger" title={t('export.failed')}>{errorMessage(exp.error)}</Alert> : null}
        {done ? (
          <Alert tone="success" title={t('export.done')}>
            {t('export.savedAs', { name: done })}
          </Alert>
        ) : null}
        <div>
          <Button variant="primary" icon="download" loading={exp.isPending} disabled={!ready} onClick={submit}>
            {t('export.button')}
          </Button>
        </div>
      </div>
    </Card>
  );
}

const actionTone: Record<string, Tone> = { create: 'success', update: 'info', unchanged: 'neutral', delete: 'danger', refused: 'warning' };
type ActionKey = keyof (typeof transferEn)['actions'];
type KindKey = keyof (typeof transferEn)['kinds'];
const isAction = (a: string): a is ActionKey => Object.hasOwn(actionTone, a);
const kindKeys = new Set<string>(['service', 'domain', 'credentialSet', 'machineToken', 'oidcClient', 'notifyChannel', 'alertRule', 'settings', 'sso', 'adminSso', 'adminSecurity', 'accessRules', 'managed', 'dnsCredential', 'admin', 'group', 'portal'] satisfies KindKey[]);
const isKind = (k: string): k is KindKey => kindKeys.has(k);

/** An item's action in the current language (an unknown one reads as itself). */
function actionLabel(t: TFunction<'transfer'>, action: string): string {
  return isAction(action) ? t(`actions.${action}`) : action;
}

/** An item's kind as a label, or inside a sentence ("Created service …"). */
function kindLabel(t: TFunction<'transfer'>, kind: string, inSentence = false): string {
  if (!isKind(kind)) return kind;
  return inSentence ? t(`kindsInSentence.${kind}`) : t(`kinds.${kind}`);
}

function ImportCard() {
  const { t } = useTranslation('transfer');
  const imp = useImport();
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<ImportMode>('merge');
  const [needsPass, setNeedsPass] = useState(false);
  const [pass, setPass] = useState('');
  const [plan, setPlan] = useState<ImportPlan | null>(null);
  const [applied, setApplied] = useState<ImportPlan | null>(null);

  const reset = () => {
    setPlan(null);
    setApplied(null);
    imp.reset();
  };
  const pick = async (f: File | null) => {
    reset();
    setFile(f);
    setNeedsPass(f ? await hasSealedSecrets(f) : false);
  };
  const review = async () => {
    if (!file) return;
    reset();
    const p = await imp.mutateAsync({ file, mode, apply: false, passphrase: pass || undefined }).catch(() => null);
    if (p) setPlan(p);
  };
  const apply = async () => {
    if (!file || !plan) return;
    const p = await imp.mutateAsync({ file, mode, apply: true, digest: plan.digest, passphrase: pass || undefined }).catch(() => null);
    if (p) {
      setApplied(p);
      setPlan(null);
    }
  };
  const passError = isApiError(imp.error) && imp.error.fields.some((f) => f.field === 'passphrase') ? imp.error.message : undefined;
  const changes = plan ? plan.summary.create + plan.summary.update + plan.summary.delete : 0;
  return (
    <Card>
      <CardHeader
        title={t('import.title')}
        description={t('import.description')}
      />
      <div className="card-body stack">
        <Field label={t('import.file')}>
          <input className="input" type="file" onChange={(e) => void pick(e.target.files?.[0] ?? null)} />
        </Field>
        <div className="radio-cards" role="radiogroup" aria-label={t('import.mode')}>
          <label className="radio-card">
            <input type="radio" name="import-mode" value="merge" checked={mode === 'merge'} onChange={() => { setMode('merge'); reset(); }} />
            <span>{t('import.merge')}</span>
          </label>
          <label className="radio-card">
            <input type="radio" name="import-mode" value="replace" checked={mode === 'replace'} onChange={() => { setMode('replace'); reset(); }} />
            <span>{t('import.replace')}</span>
          </label>
        </div>
        {needsPass ? (
          <Field label={t('import.passphrase')} error={passError} hint={t('import.passphraseHint')}>
            <input className="input" type="password" autoComplete="off" value={pass} onChange={(e) => setPass(e.target.value)} />
          </Field>
        ) : null}
        {imp.isError && !passError ? <Alert tone="danger" title={t('import.refused')}>{errorMessage(imp.error)}</Alert> : null}
        <div>
          <Button variant="secondary" icon="eye" disabled={!file || imp.isPending} loading={imp.isPending && !plan} onClick={review}>
            {t('import.review')}
          </Button>
        </div>
        {applied ? (
          <Alert tone="success" title={t('import.done')}>
            {t(applied.summary.refused ? 'import.summaryRefused' : 'import.summary', {
              create: applied.summary.create,
              update: applied.summary.update,
              delete: applied.summary.delete,
              refused: applied.summary.refused,
            })}
            <AppliedLinks plan={applied} />
          </Alert>
        ) : null}
        {plan ? (
          <PlanView plan={plan}>
            <Button variant={plan.mode === 'replace' && plan.summary.delete > 0 ? 'danger' : 'primary'} loading={imp.isPending} disabled={changes === 0} onClick={apply}>
              {changes === 0 ? t('import.nothingToApply') : t('import.apply', { count: changes })}
            </Button>
          </PlanView>
        ) : null}
      </div>
    </Card>
  );
}

/** The plan's columns; notes says what the file's reader noted about an item (a router's TLS, its resolver). */
function planColumns(t: TFunction<'transfer'>, notes: (it: ImportItem) => string[]): Column<ImportItem>[] {
  return [
    // The action leads each card on a phone, and says what it is.
    { id: 'action', header: t('plan.action'), label: t('plan.action'), cell: (it) => <Badge tone={actionTone[it.action] ?? 'neutral'}>{actionLabel(t, it.action)}</Badge> },
    { id: 'kind', header: t('plan.kind'), cell: (it) => kindLabel(t, it.kind) },
    { id: 'name', header: t('plan.name'), className: 'mono', cell: (it) => <ItemName item={it} /> },
    { id: 'details', header: t('plan.details'), cell: (it) => <ItemDetails item={it} notes={notes(it)} /> },
  ];
}

/** A Traefik file's notes about the router a service comes from (the service has the router's name). */
function routerNotes(plan: ImportPlan): (it: ImportItem) => string[] {
  const byRouter = new Map<string, string[]>();
  for (const sk of plan.skipped) {
    if (!sk.source.startsWith('router ')) continue;
    const name = sk.source.slice('router '.length);
    byRouter.set(name, [...(byRouter.get(name) ?? []), sk.reason]);
  }
  return (it) => (it.kind === 'service' && it.action !== 'refused' ? (byRouter.get(it.name) ?? []) : []);
}

/** Where an applied item lives in the panel, when it has a page. */
function itemLink(it: ImportItem): string | null {
  if (!it.id) return null;
  if (it.kind === 'service') return `/services/${it.id}`;
  if (it.kind === 'domain') return '/domains';
  if (it.kind === 'credentialSet') return '/credential-sets';
  if (it.kind === 'alertRule') return '/alerts';
  return null;
}

/** Links to what an applied import created or updated. */
function AppliedLinks({ plan }: { plan: ImportPlan }) {
  const { t } = useTranslation('transfer');
  const written = plan.items.filter((it) => itemLink(it));
  if (!written.length) return null;
  return (
    <ul className="plain-list" data-testid="import-applied">
      {written.slice(0, 20).map((it) => (
        <li key={`${it.kind}-${it.id}`}>
          <Trans t={t} i18nKey={it.action === 'create' ? 'import.created' : 'import.updated'} values={{ kind: kindLabel(t, it.kind, true), name: it.name }} components={{ name: <ItemNameLink item={it} /> }} />
        </li>
      ))}
      {written.length > 20 ? <li className="muted">{t('import.andMore', { count: written.length - 20 })}</li> : null}
    </ul>
  );
}

function ItemName({ item }: { item: ImportItem }) {
  const to = itemLink(item);
  return to ? <Link to={to}>{item.name}</Link> : <>{item.name}</>;
}

/** The element a translated sentence wraps the item's name in: a link to its page when it has one. */
function ItemNameLink({ item, children }: { item: ImportItem; children?: ReactNode }) {
  const to = itemLink(item);
  return to ? <Link to={to}>{children}</Link> : <>{children}</>;
}

/** Why an item is refused, or what it is or becomes: host names, targets, TLS, with was → now on an update. */
function ItemDetails({ item, notes }: { item: ImportItem; notes: string[] }) {
  const { t } = useTranslation('transfer');
  if (item.reason) return <>{item.reason}</>;
  const lines = item.details ?? [];
  if (!lines.length && !notes.length) return item.fields?.length ? <>{t('plan.changesFields', { fields: item.fields.join(', ') })}</> : null;
  return (
    <ul className="plain-list small" data-testid="import-details">
      {lines.map((l) => (
        <li key={l}>{l}</li>
      ))}
      {item.fields?.length ? <li className="muted">{t('plan.changesFields', { fields: item.fields.join(', ') })}</li> : null}
      {notes.map((n) => (
        <li key={n} className="warn-text" data-testid="import-note">
          <Icon name="alert" size={12} /> {n}
        </li>
      ))}
    </ul>
  );
}

function skippedColumns(t: TFunction<'transfer'>): Column<ImportPlan['skipped'][number]>[] {
  return [
    { id: 'source', header: t('plan.notImported'), cell: (sk) => sk.source },
    { id: 'reason', header: t('plan.why'), label: false, cell: (sk) => sk.reason },
  ];
}

function PlanView({ plan, children }: { plan: ImportPlan; children: ReactNode }) {
  const { t } = useTranslation('transfer');
  const s = plan.summary;
  return (
    <div className="stack">
      <p role="status">
        <Trans
          t={t}
          i18nKey="plan.summary"
          values={{ format: plan.format, mode: plan.mode === 'merge' || plan.mode === 'replace' ? t(`plan.modes.${plan.mode}`) : plan.mode, ...s }}
          components={{ b: <strong /> }}
        />
      </p>
      <DataTable data={plan.items} rowKey={(it, i) => `${it.kind}-${it.name}-${i}`} columns={planColumns(t, routerNotes(plan))} label={t('plan.label')} />
      {plan.skipped.length > 0 ? <DataTable data={plan.skipped} rowKey={(_, i) => String(i)} columns={skippedColumns(t)} label={t('plan.notImported')} /> : null}
      <div>{children}</div>
    </div>
  );
}
