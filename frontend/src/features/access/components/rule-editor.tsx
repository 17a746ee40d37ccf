import { useEffect, useRef, useState } from 'react';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { FieldErrorText } from '@/components/ui/field';
import { EmptyState } from '@/components/ui/states';
import type { AccessPreset } from '@/lib/api-types';
import { useCanWrite } from '@/lib/api/system';
import { toast } from '@/lib/toast';
import { PresetDialog } from './preset-dialog';
import { RuleCard } from './rule-card';
import { emptyRule, MAX_RULES, ruleToForm, type RulesFormValues } from './rule-schema';

type Props = {
  geoip: boolean;
  title?: string;
  description?: string;
};

/**
 * The ordered rule list of a service or of the global list. Lives inside a FormProvider
 * over RulesFormValues; the page owns the form, saving and the unsaved-changes guard.
 */
export function RuleEditor({ geoip, title = 'Rules', description }: Props) {
  const { control, formState } = useFormContext<RulesFormValues>();
  const { fields, append, prepend, remove, move } = useFieldArray({ control, name: 'rules' });
  const [open, setOpen] = useState<Set<string>>(() => new Set());
  const [presets, setPresets] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const focusAfter = useRef<{ id: string; dir: -1 | 1 } | null>(null);
  const listError = formState.errors.rules?.message ?? formState.errors.rules?.root?.message;
  const canWrite = useCanWrite();

  // Moving a rule re-orders DOM nodes, which can drop focus: put it back on the moved rule's button.
  useEffect(() => {
    const f = focusAfter.current;
    if (!f) return;
    focusAfter.current = null;
    const primary = document.getElementById(`rule-${f.id}-${f.dir < 0 ? 'up' : 'down'}`) as HTMLButtonElement | null;
    const other = document.getElementById(`rule-${f.id}-${f.dir < 0 ? 'down' : 'up'}`) as HTMLButtonElement | null;
    (primary && !primary.disabled ? primary : other)?.focus();
  });

  const toggle = (id: string) =>
    setOpen((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  // A new rule opens for editing; its field id is only known after the next render.
  const openLast = useRef(false);
  useEffect(() => {
    if (!openLast.current) return;
    openLast.current = false;
    const last = fields[fields.length - 1];
    if (last) setOpen((s) => new Set(s).add(last.id));
  }, [fields]);
  const addRule = () => {
    openLast.current = true;
    append(emptyRule());
    setAnnouncement(`Rule ${fields.length + 1} added at the end`);
  };

  const insertPreset = (p: AccessPreset) => {
    if (fields.length + p.rules.length > MAX_RULES) {
      toast.error(`At most ${MAX_RULES} rules`, `${p.name} adds ${p.rules.length}; remove some rules first.`);
      return;
    }
    prepend(p.rules.map(ruleToForm));
    setPresets(false);
    const msg = `Inserted ${p.rules.length} rule${p.rules.length === 1 ? '' : 's'} from ${p.name} at the top`;
    setAnnouncement(msg);
    toast.info(msg, 'Review them, then save.');
  };

  return (
    <Card>
      <CardHeader
        title={`${title} (${fields.length})`}
        description={description ?? 'Checked from the top; the first rule whose conditions all match decides. Within a kind any item matches; different kinds must all match.'}
        actions={
          canWrite ? (
            <>
              <Button size="sm" icon="layers" onClick={() => setPresets(true)} aria-haspopup="dialog">
                Insert preset
              </Button>
              <Button size="sm" variant="primary" icon="plus" onClick={addRule} disabled={fields.length >= MAX_RULES}>
                Add rule
              </Button>
            </>
          ) : null
        }
      />
      <div className="sr-only" role="status" aria-live="polite">
        {announcement}
      </div>
      {fields.length === 0 ? (
        <EmptyState icon="filter" title="No rules">
          Every request gets the default action.{canWrite ? ' Add a rule, or insert a preset for a common app.' : ''}
        </EmptyState>
      ) : (
        <ol className="rule-list">
          {fields.map((f, i) => (
            <RuleCard
              key={f.id}
              index={i}
              count={fields.length}
              fieldId={f.id}
              geoip={geoip}
              open={open.has(f.id)}
              onToggle={() => toggle(f.id)}
              onMove={(dir) => {
                const to = i + dir;
                if (to < 0 || to >= fields.length) return;
                focusAfter.current = { id: f.id, dir };
                move(i, to);
                setAnnouncement(`Rule ${i + 1} moved ${dir < 0 ? 'up' : 'down'} to position ${to + 1}`);
              }}
              onRemove={() => {
                remove(i);
                setAnnouncement(`Rule ${i + 1} removed`);
              }}
            />
          ))}
        </ol>
      )}
      {listError ? (
        <div className="card-body" style={{ paddingTop: 0 }}>
          <FieldErrorText message={listError} />
        </div>
      ) : null}
      <PresetDialog open={presets} onClose={() => setPresets(false)} onInsert={insertPreset} />
    </Card>
  );
}
