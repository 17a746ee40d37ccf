import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import type { AccessPreset } from '@/lib/api-types';
import { usePresets } from '../api/access';
import { actionLabel, ruleToForm, summarizeRule } from './rule-schema';

/** Lists the presets; inserting one copies its rules (ordinary, editable rules) to the top of the list. */
export function PresetDialog({ open, onClose, onInsert }: { open: boolean; onClose: () => void; onInsert: (p: AccessPreset) => void }) {
  const { t } = useTranslation(['access', 'common']);
  const presets = usePresets(open);
  return (
    <Modal
      open={open}
      onClose={onClose}
      size="lg"
      title={t('presets.title')}
      description={t('presets.description')}
      footer={<Button onClick={onClose}>{t('common:actions.cancel')}</Button>}
    >
      {presets.isPending ? (
        <LoadingRows rows={4} />
      ) : presets.isError ? (
        <ErrorState error={presets.error} onRetry={() => presets.refetch()} title={t('presets.loadFailed')} />
      ) : (
        <ul className="preset-list">
          {presets.data.map((p) => (
            <li key={p.id} className="preset">
              <div className="preset-head">
                <div className="grow stack-sm" style={{ gap: 4 }}>
                  <h3>{p.name}</h3>
                  <p className="small muted">{p.description}</p>
                </div>
                <Button size="sm" variant="primary" icon="plus" onClick={() => onInsert(p)} aria-label={t('presets.insertNamed', { name: p.name })}>
                  {t('presets.insert')}
                </Button>
              </div>
              <ol className="preset-rules small">
                {p.rules.map((r, i) => {
                  const f = ruleToForm(r);
                  return (
                    <li key={i}>
                      <strong>{actionLabel(r.action)}</strong> <span className="mono muted">{summarizeRule(f)}</span>
                      {r.note ? <span className="faint"> · {r.note}</span> : null}
                    </li>
                  );
                })}
              </ol>
              {p.docs?.length ? (
                <div className="row small">
                  <span className="muted">{t('presets.docs')}</span>
                  {p.docs.map((d) => (
                    <a key={d} href={d} target="_blank" rel="noreferrer noopener">
                      {`${docLabel(d)} ${outward}`}
                    </a>
                  ))}
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}

// The arrow after a link that opens another site.
const outward = '↗';

function docLabel(url: string): string {
  try {
    const u = new URL(url);
    return u.hostname.replace(/^www\./, '') + (u.pathname.length > 1 ? u.pathname.replace(/\/$/, '') : '');
  } catch {
    return url;
  }
}
