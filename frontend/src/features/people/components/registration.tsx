import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import i18n from '@/lib/i18n';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { errorMessage, isApiError } from '@/lib/api-client';
import type { Group } from '@/lib/api-types';
import { useRegistrationSettings, useSaveRegistrationSettings } from '../api/invitations';

/** Where a field error names domains[i], says which line it is. */
function describe(field: string, message: string): string {
  const m = /^domains\[(\d+)\]$/.exec(field);
  if (m) return i18n.t('people:registration.domainLine', { line: Number(m[1]) + 1, message });
  const g = /^groups\[(\d+)\]$/.exec(field);
  if (g) return i18n.t('people:registration.groupN', { n: Number(g[1]) + 1, message });
  return field === 'domains' ? i18n.t('people:registration.domainsError', { message }) : message;
}

/** Self-registration: off (people come by invitation only) or open to listed e-mail domains. */
export function RegistrationCard({ canWrite, groups }: { canWrite: boolean; groups: Group[] }) {
  const { t } = useTranslation(['people', 'common']);
  const settings = useRegistrationSettings();
  const save = useSaveRegistrationSettings();
  const [mode, setMode] = useState<'off' | 'domains'>('off');
  const [domains, setDomains] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (!settings.data) return;
    setMode(settings.data.mode);
    setDomains(settings.data.domains.join('\n'));
    setChosen(settings.data.groups);
  }, [settings.data]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setProblems([]);
    setSaved(false);
    const list = domains
      .split('\n')
      .map((d) => d.trim())
      .filter((d) => d !== '');
    save.mutate(
      { mode, domains: list, groups: chosen },
      {
        onSuccess: () => setSaved(true),
        onError: (err) =>
          setProblems(isApiError(err) && err.fields.length ? err.fields.map((f) => describe(f.field, f.message)) : [errorMessage(err)]),
      },
    );
  };
  return (
    <Card>
      <div className="card-body">
        <h2 style={{ fontSize: '1.05rem', margin: 0 }}>{t('registration.title')}</h2>
        {settings.isError ? <ErrorState error={settings.error} onRetry={() => settings.refetch()} /> : null}
        {settings.isPending ? (
          <LoadingRows />
        ) : (
          <form className="stack" onSubmit={onSubmit} noValidate aria-label={t('registration.title')}>
            {problems.length ? (
              <Alert tone="danger" title={t('form.notSaved')}>
                {problems.map((p) => (
                  <div key={p}>{p}</div>
                ))}
              </Alert>
            ) : null}
            {saved ? (
              <Alert tone="success" title={t('registration.saved')}>
                {t('registration.savedText')}
              </Alert>
            ) : null}
            <Field label={t('registration.who')} hint={t('registration.whoHint')}>
              <select className="input" value={mode} disabled={!canWrite} onChange={(e) => setMode(e.target.value as 'off' | 'domains')}>
                <option value="off">{t('registration.off')}</option>
                <option value="domains">{t('registration.domainsMode')}</option>
              </select>
            </Field>
            {mode === 'domains' ? (
              <>
                <Field label={t('registration.domains')} hint={t('registration.domainsHint')}>
                  <textarea className="input" rows={3} value={domains} disabled={!canWrite} onChange={(e) => setDomains(e.target.value)} />
                </Field>
                <fieldset className="stack">
                  <legend className="small">{t('registration.groups')}</legend>
                  {groups.length === 0 ? <p className="muted small">{t('registration.noGroups')}</p> : null}
                  {groups.map((g) => (
                    <label className="checkbox" key={g.id}>
                      <input
                        type="checkbox"
                        disabled={!canWrite}
                        checked={chosen.includes(g.id)}
                        onChange={(e) => setChosen(e.target.checked ? [...chosen, g.id] : chosen.filter((id) => id !== g.id))}
                      />{' '}
                      {g.name}
                    </label>
                  ))}
                </fieldset>
              </>
            ) : null}
            {canWrite ? (
              <div>
                <Button type="submit" variant="primary" loading={save.isPending}>
                  {t('common:actions.save')}
                </Button>
              </div>
            ) : null}
          </form>
        )}
      </div>
    </Card>
  );
}
