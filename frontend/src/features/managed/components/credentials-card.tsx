import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { ReadOnlyFieldset } from '@/components/ui/read-only';
import type { ManagedState } from '@/lib/api-types';
import { useCanWrite } from '@/lib/api/system';
import { formatRelative } from '@/lib/format';
import { useDnsProviders, useSaveSecrets } from '../api/managed';
import { credentialNameIssue } from './managed-schema';

/** Write-only DNS credentials: values are never read back, only whether each one is set. */
export function CredentialsCard({ state }: { state: ManagedState }) {
  const { t } = useTranslation('managed');
  const providers = useDnsProviders();
  const save = useSaveSecrets();
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [extraName, setExtraName] = useState('');
  const [extraError, setExtraError] = useState<string | null>(null);
  const [remove, setRemove] = useState<string[]>([]);

  const setNames = new Map(state.credentials.map((c) => [c.name, c.updatedAt]));
  const needed = new Set<string>();
  const optional = new Set<string>();
  for (const r of state.config.resolvers ?? []) {
    if (r.challenge !== 'dns') continue;
    const p = providers.data?.find((x) => x.code === r.dnsProvider);
    for (const f of p?.fields ?? []) needed.add(f);
    for (const f of p?.optional ?? []) optional.add(f);
  }
  const names = [...new Set([...needed, ...setNames.keys(), ...Object.keys(drafts)])].sort();
  const upsert = Object.fromEntries(Object.entries(drafts).filter(([, v]) => v !== ''));
  const dirty = Object.keys(upsert).length > 0 || remove.length > 0;
  const canWrite = useCanWrite();

  const submit = () =>
    save.mutate(
      { upsert, remove },
      {
        onSuccess: () => {
          setDrafts({});
          setRemove([]);
        },
      },
    );

  return (
    <Card>
      <CardHeader title={t('credentials.title')} description={t('credentials.description')} />
      <ReadOnlyFieldset readOnly={!canWrite} className="card-body stack">
        {names.length === 0 ? <p className="muted">{t('credentials.none')}</p> : null}
        {names.map((n) => {
          const isSet = setNames.has(n);
          const removing = remove.includes(n);
          return (
            <div key={n} className="row" style={{ alignItems: 'flex-end', flexWrap: 'wrap' }}>
              <Field
                className="grow"
                label={
                  <>
                    <span className="mono">{n}</span>
                    {removing ? (
                      <Badge tone="danger" icon="trash">
                        {t('credentials.willBeRemoved')}
                      </Badge>
                    ) : isSet ? (
                      <Badge tone="success" icon="check">
                        {t('credentials.set')}
                      </Badge>
                    ) : (
                      <Badge tone="warning" icon="alert">
                        {t('credentials.notSet')}
                      </Badge>
                    )}
                  </>
                }
                hint={isSet ? t('credentials.updated', { when: formatRelative(setNames.get(n)) }) : needed.has(n) ? t('credentials.required') : undefined}
              >
                <input
                  className="input mono"
                  type="password"
                  autoComplete="off"
                  placeholder={isSet ? t('credentials.replacePlaceholder') : t('credentials.valuePlaceholder')}
                  value={drafts[n] ?? ''}
                  disabled={removing}
                  onChange={(e) => setDrafts((d) => ({ ...d, [n]: e.target.value }))}
                />
              </Field>
              {isSet && canWrite ? (
                <Button
                  size="md"
                  variant="ghost"
                  icon={removing ? 'refresh' : 'trash'}
                  onClick={() => setRemove((r) => (removing ? r.filter((x) => x !== n) : [...r, n]))}
                >
                  {removing ? t('credentials.keep') : t('credentials.remove')}
                </Button>
              ) : null}
            </div>
          );
        })}
        {canWrite && [...optional].filter((n) => !names.includes(n)).length ? (
          <div className="stack-sm">
            <span className="field-label">{t('credentials.optional')}</span>
            <div className="suggestions">
              {[...optional]
                .filter((n) => !names.includes(n))
                .map((n) => (
                  <button key={n} type="button" className="suggestion" onClick={() => setDrafts((d) => ({ ...d, [n]: '' }))} aria-label={t('credentials.addName', { name: n })}>
                    + {n}
                  </button>
                ))}
            </div>
          </div>
        ) : null}
        {canWrite ? <div className="divider" /> : null}
        {canWrite ? (
          <div className="input-row">
            <Field label={t('credentials.addAnother')} optional error={extraError ?? undefined}>
              <input className="input mono" placeholder={t('credentials.addPlaceholder')} value={extraName} onChange={(e) => setExtraName(e.target.value.toUpperCase())} />
            </Field>
            <Button
              icon="plus"
              onClick={() => {
                const n = extraName.trim();
                const issue = credentialNameIssue(n);
                if (issue) return setExtraError(issue);
                setExtraError(null);
                setDrafts((d) => ({ ...d, [n]: d[n] ?? '' }));
                setExtraName('');
              }}
            >
              {t('credentials.add')}
            </Button>
          </div>
        ) : null}
      </ReadOnlyFieldset>
      {canWrite ? (
        <div className="card-footer">
          <Button variant="primary" loading={save.isPending} disabled={!dirty} onClick={submit}>
            {t('credentials.save')}
          </Button>
        </div>
      ) : null}
    </Card>
  );
}
