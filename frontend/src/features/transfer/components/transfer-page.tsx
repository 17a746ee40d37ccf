import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
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
import { PASSPHRASE_MIN, hasSealedSecrets, useExport, useImport } from '../api/transfer';

export function TransferPage() {
  const canWrite = useCanWrite();
  return (
    <>
      <PageHeader
        title="Export & import"
        description="Save the whole configuration as one file, bring it into another panel, or import hosts from Nginx Proxy Manager or Traefik files."
      />
      <div className="stack">
        {canWrite ? (
          <>
            <ExportCard />
            <ImportCard />
          </>
        ) : (
          <ReadOnlyNote>An export carries password hashes and upstream header values: only an administrator with the admin role can export or import.</ReadOnlyNote>
        )}
      </div>
    </>
  );
}

function ExportCard() {
  const exp = useExport();
  const [admins, setAdmins] = useState(false);
  const [secrets, setSecrets] = useState(false);
  const [adminPasswords, setAdminPasswords] = useState(false);
  const [pass, setPass] = useState('');
  const [pass2, setPass2] = useState('');
  const [done, setDone] = useState('');
  const sealed = secrets || adminPasswords;
  const passError = sealed && pass.length > 0 && pass.length < PASSPHRASE_MIN ? `At least ${PASSPHRASE_MIN} characters.` : undefined;
  const repeatError = sealed && pass2.length > 0 && pass2 !== pass ? 'The passphrases differ.' : undefined;
  const ready = !sealed || (pass.length >= PASSPHRASE_MIN && pass === pass2);
  const submit = async () => {
    setDone('');
    const name = await exp.mutateAsync({ admins: admins || adminPasswords, secrets, adminPasswords, passphrase: sealed ? pass : undefined }).catch(() => null);
    if (name) setDone(name);
  };
  return (
    <Card>
      <CardHeader
        title="Export"
        description="Domains, services with their protections and access rules, credential sets (password hashes), machine-token names, notification channels and the panel's settings. No sessions."
      />
      <div className="card-body stack">
        <label className="checkbox">
          <input type="checkbox" checked={admins} onChange={(e) => setAdmins(e.target.checked)} />
          <span className="checkbox-text">
            <span>Include people and groups</span>
            <span className="field-hint">Usernames, panel roles, e-mail, display names, single sign-on links and group members.</span>
          </span>
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={secrets} onChange={(e) => setSecrets(e.target.checked)} />
          <span className="checkbox-text">
            <span>Include secrets</span>
            <span className="field-hint">The SSO client secret, DNS credentials, notification secrets and machine tokens, encrypted to a passphrase.</span>
          </span>
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={adminPasswords} onChange={(e) => setAdminPasswords(e.target.checked)} />
          <span className="checkbox-text">
            <span>Include people's passwords</span>
            <span className="field-hint">Their password hashes, encrypted to the passphrase too.</span>
          </span>
        </label>
        {sealed ? (
          <>
            <Field label="Passphrase" error={passError} hint={`At least ${PASSPHRASE_MIN} characters. Keep it: the secrets cannot be read without it.`}>
              <input className="input" type="password" autoComplete="new-password" value={pass} onChange={(e) => setPass(e.target.value)} />
            </Field>
            <Field label="Passphrase again" error={repeatError}>
              <input className="input" type="password" autoComplete="new-password" value={pass2} onChange={(e) => setPass2(e.target.value)} />
            </Field>
          </>
        ) : null}
        {exp.isError ? <Alert tone="danger" title="The export failed">{errorMessage(exp.error)}</Alert> : null}
        {done ? <Alert tone="success" title="Exported">Saved as {done}.</Alert> : null}
        <div>
          <Button variant="primary" icon="download" loading={exp.isPending} disabled={!ready} onClick={submit}>
            Export
          </Button>
        </div>
      </div>
    </Card>
  );
}

const actionTone: Record<string, Tone> = { create: 'success', update: 'info', unchanged: 'neutral', delete: 'danger', refused: 'warning' };
const actionLabel: Record<string, string> = { create: 'Create', update: 'Update', unchanged: 'Unchanged', delete: 'Delete', refused: 'Refused' };
const kindLabel: Record<string, string> = {
  service: 'Service', domain: 'Domain', credentialSet: 'Credential set', machineToken: 'Machine token', notifyChannel: 'Notification channel',
  settings: 'Settings', sso: 'Single sign-on', adminSso: 'Panel sign-in', adminSecurity: 'Two-factor policy', accessRules: 'Global access rules',
  managed: 'Managed Traefik', dnsCredential: 'DNS credential', admin: 'Administrator', portal: 'Sign-in portal',
};

function ImportCard() {
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
        title="Import"
        description="A Gatehouse export, a Nginx Proxy Manager database (database.sqlite) or a Traefik dynamic configuration file (YAML or TOML). Review the plan first: nothing changes until you apply it, and it is applied all at once or not at all."
      />
      <div className="card-body stack">
        <Field label="File">
          <input className="input" type="file" onChange={(e) => void pick(e.target.files?.[0] ?? null)} />
        </Field>
        <div className="radio-cards" role="radiogroup" aria-label="Mode">
          <label className="radio-card">
            <input type="radio" name="import-mode" value="merge" checked={mode === 'merge'} onChange={() => { setMode('merge'); reset(); }} />
            <span>Merge: create and update, keep everything else</span>
          </label>
          <label className="radio-card">
            <input type="radio" name="import-mode" value="replace" checked={mode === 'replace'} onChange={() => { setMode('replace'); reset(); }} />
            <span>Replace: also delete what the file does not have</span>
          </label>
        </div>
        {needsPass ? (
          <Field label="Passphrase" error={passError} hint="The file holds encrypted secrets: the passphrase it was exported with opens them.">
            <input className="input" type="password" autoComplete="off" value={pass} onChange={(e) => setPass(e.target.value)} />
          </Field>
        ) : null}
        {imp.isError && !passError ? <Alert tone="danger" title="The import was refused">{errorMessage(imp.error)}</Alert> : null}
        <div>
          <Button variant="secondary" icon="eye" disabled={!file || imp.isPending} loading={imp.isPending && !plan} onClick={review}>
            Review
          </Button>
        </div>
        {applied ? (
          <Alert tone="success" title="Imported">
            {applied.summary.create} created, {applied.summary.update} updated, {applied.summary.delete} deleted
            {applied.summary.refused ? `, ${applied.summary.refused} refused (left as they were)` : ''}.
            <AppliedLinks plan={applied} />
          </Alert>
        ) : null}
        {plan ? (
          <PlanView plan={plan}>
            <Button variant={plan.mode === 'replace' && plan.summary.delete > 0 ? 'danger' : 'primary'} loading={imp.isPending} disabled={changes === 0} onClick={apply}>
              {changes === 0 ? 'Nothing to apply' : `Apply ${changes} change${changes === 1 ? '' : 's'}`}
            </Button>
          </PlanView>
        ) : null}
      </div>
    </Card>
  );
}

/** The plan's columns; notes says what the file's reader noted about an item (a router's TLS, its resolver). */
function planColumns(notes: (it: ImportItem) => string[]): Column<ImportItem>[] {
  return [
    // The action leads each card on a phone, and says what it is.
    { id: 'action', header: 'Action', label: 'Action', cell: (it) => <Badge tone={actionTone[it.action] ?? 'neutral'}>{actionLabel[it.action] ?? it.action}</Badge> },
    { id: 'kind', header: 'Kind', cell: (it) => kindLabel[it.kind] ?? it.kind },
    { id: 'name', header: 'Name', className: 'mono', cell: (it) => <ItemName item={it} /> },
    { id: 'details', header: 'Details', cell: (it) => <ItemDetails item={it} notes={notes(it)} /> },
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
  return null;
}

/** Links to what an applied import created or updated. */
function AppliedLinks({ plan }: { plan: ImportPlan }) {
  const written = plan.items.filter((it) => itemLink(it));
  if (!written.length) return null;
  return (
    <ul className="plain-list" data-testid="import-applied">
      {written.slice(0, 20).map((it) => (
        <li key={`${it.kind}-${it.id}`}>
          {it.action === 'create' ? 'Created' : 'Updated'} {kindLabel[it.kind]?.toLowerCase() ?? it.kind} <ItemName item={it} />
        </li>
      ))}
      {written.length > 20 ? <li className="muted">and {written.length - 20} more</li> : null}
    </ul>
  );
}

function ItemName({ item }: { item: ImportItem }) {
  const to = itemLink(item);
  return to ? <Link to={to}>{item.name}</Link> : <>{item.name}</>;
}

/** Why an item is refused, or what it is or becomes: host names, targets, TLS, with was → now on an update. */
function ItemDetails({ item, notes }: { item: ImportItem; notes: string[] }) {
  if (item.reason) return <>{item.reason}</>;
  const lines = item.details ?? [];
  if (!lines.length && !notes.length) return item.fields?.length ? <>Changes {item.fields.join(', ')}</> : null;
  return (
    <ul className="plain-list small" data-testid="import-details">
      {lines.map((l) => (
        <li key={l}>{l}</li>
      ))}
      {item.fields?.length ? <li className="muted">Changes {item.fields.join(', ')}</li> : null}
      {notes.map((n) => (
        <li key={n} className="warn-text" data-testid="import-note">
          <Icon name="alert" size={12} /> {n}
        </li>
      ))}
    </ul>
  );
}

const skippedColumns: Column<ImportPlan['skipped'][number]>[] = [
  { id: 'source', header: 'Not imported', cell: (sk) => sk.source },
  { id: 'reason', header: 'Why', label: false, cell: (sk) => sk.reason },
];

function PlanView({ plan, children }: { plan: ImportPlan; children: ReactNode }) {
  const s = plan.summary;
  return (
    <div className="stack">
      <p role="status">
        Plan ({plan.format}, {plan.mode}): <strong>{s.create}</strong> to create, <strong>{s.update}</strong> to update, <strong>{s.unchanged}</strong> unchanged,{' '}
        <strong>{s.delete}</strong> to delete, <strong>{s.refused}</strong> refused, <strong>{s.skipped}</strong> skipped.
      </p>
      <DataTable data={plan.items} rowKey={(it, i) => `${it.kind}-${it.name}-${i}`} columns={planColumns(routerNotes(plan))} label="Import plan" />
      {plan.skipped.length > 0 ? <DataTable data={plan.skipped} rowKey={(_, i) => String(i)} columns={skippedColumns} label="Not imported" /> : null}
      <div>{children}</div>
    </div>
  );
}
