import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import type { AccessPreset } from '@/lib/api-types';
import { usePresets } from '../api/access';
import { actionLabels, ruleToForm, summarizeRule } from './rule-schema';

/** Lists the presets; inserting one copies its rules (ordinary, editable rules) to the top of the list. */
export function PresetDialog({ open, onClose, onInsert }: { open: boolean; onClose: () => void; onInsert: (p: AccessPreset) => void }) {
  const presets = usePresets(open);
  return (
    <Modal
      open={open}
      onClose={onClose}
      size="lg"
      title="Insert a preset"
      description="A preset's rules are inserted at the top of the list as ordinary rules, each with its note. Nothing is saved until you save."
      footer={<Button onClick={onClose}>Cancel</Button>}
    >
      {presets.isPending ? (
        <LoadingRows rows={4} />
      ) : presets.isError ? (
        <ErrorState error={presets.error} onRetry={() => presets.refetch()} title="Could not load the presets" />
      ) : (
        <ul className="preset-list">
          {presets.data.map((p) => (
            <li key={p.id} className="preset">
              <div className="preset-head">
                <div className="grow stack-sm" style={{ gap: 4 }}>
                  <h3>{p.name}</h3>
                  <p className="small muted">{p.description}</p>
                </div>
                <Button size="sm" variant="primary" icon="plus" onClick={() => onInsert(p)} aria-label={`Insert ${p.name}`}>
                  Insert
                </Button>
              </div>
              <ol className="preset-rules small">
                {p.rules.map((r, i) => {
                  const f = ruleToForm(r);
                  return (
                    <li key={i}>
                      <strong>{actionLabels[r.action]}</strong> <span className="mono muted">{summarizeRule(f)}</span>
                      {r.note ? <span className="faint"> · {r.note}</span> : null}
                    </li>
                  );
                })}
              </ol>
              {p.docs?.length ? (
                <div className="row small">
                  <span className="muted">Docs:</span>
                  {p.docs.map((d) => (
                    <a key={d} href={d} target="_blank" rel="noreferrer noopener">
                      {docLabel(d)} ↗
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

function docLabel(url: string): string {
  try {
    const u = new URL(url);
    return u.hostname.replace(/^www\./, '') + (u.pathname.length > 1 ? u.pathname.replace(/\/$/, '') : '');
  } catch {
    return url;
  }
}
