import { useTranslation } from 'react-i18next';
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
export function RuleEditor({ geoip, title, description }: Props) {
  const { t } = useTranslation('access');
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
    setAnnouncement(t('editor.added', { n: fields.length + 1 }));
  };

  const insertPreset = (p: AccessPreset) => {
    if (fields.length + p.rules.length > MAX_RULES) {
      toast.error(t('schema.atMostRules', { max: MAX_RULES }), t('editor.tooMany', { name: p.name, count: p.rules.length }));
      return;
    }
    prepend(p.rules.map(ruleToForm));
    setPresets(false);
    const msg = t('editor.inserted', { name: p.name, count: p.rules.length });
    setAnnouncement(msg);
    toast.info(msg, t('editor.review'));
  };

  return (
    <Card>
      <CardHeader
        title={t('editor.titleCount', { title: title ?? t('editor.title'), n: fields.length })}
        description={description ?? t('editor.description')}
        actions={
          canWrite ? (
            <>
              <Button size="sm" icon="layers" onClick={() => setPresets(true)} aria-haspopup="dialog">
                {t('editor.insertPreset')}
              </Button>
              <Button size="sm" variant="primary" icon="plus" onClick={addRule} disabled={fields.length >= MAX_RULES}>
                {t('editor.addRule')}
              </Button>
            </>
          ) : null
        }
      />
      <div className="sr-only" role="status" aria-live="polite">
        {announcement}
      </div>
      {fields.length === 0 ? (
        <EmptyState icon="filter" title={t('editor.empty')}>
          {canWrite ? t('editor.emptyTextWrite') : t('editor.emptyText')}
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
                setAnnouncement(dir < 0 ? t('editor.movedUp', { n: i + 1, to: to + 1 }) : t('editor.movedDown', { n: i + 1, to: to + 1 }));
              }}
              onRemove={() => {
                remove(i);
                setAnnouncement(t('editor.removed', { n: i + 1 }));
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
