import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Field } from '@/components/ui/field';
import { FormModal } from '@/components/ui/form-modal';
import i18n from '@/lib/i18n';
import type { AlertKind, AlertRule, AlertRuleInput } from '@/lib/api-types';
import { ALERT_KINDS, THRESHOLD_UNIT, useSaveAlertRule, useServiceChoices } from '../api/alerts';

// The same bounds the server checks (internal/alerts/validate.go).
const MAX_NAME = 100;
const MAX_MINUTES = 1440;
const MAX_MS = 600000;

const schema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, { error: () => i18n.t('alerts:schema.name') })
      .max(MAX_NAME, { error: () => i18n.t('alerts:schema.atMost', { max: MAX_NAME }) }),
    serviceId: z.string(),
    kind: z.enum(['error_ratio', 'latency_p95', 'no_traffic', 'backend_down']),
    threshold: z.string().trim(),
    forMinutes: z.string().trim(),
    enabled: z.boolean(),
  })
  .superRefine((v, ctx) => {
    const n = Number(v.threshold);
    if (v.kind === 'error_ratio' && !(v.threshold !== '' && n > 0 && n <= 100))
      ctx.addIssue({ code: 'custom', path: ['threshold'], message: i18n.t('alerts:schema.percent') });
    if (v.kind === 'latency_p95' && !(v.threshold !== '' && n >= 1 && n <= MAX_MS))
      ctx.addIssue({ code: 'custom', path: ['threshold'], message: i18n.t('alerts:schema.ms', { max: MAX_MS }) });
    const m = Number(v.forMinutes);
    if (!/^\d+$/.test(v.forMinutes) || m < 1 || m > MAX_MINUTES)
      ctx.addIssue({ code: 'custom', path: ['forMinutes'], message: i18n.t('alerts:schema.minutes', { max: MAX_MINUTES }) });
  });
type Values = z.infer<typeof schema>;

function toValues(r?: AlertRule): Values {
  return {
    name: r?.name ?? '',
    serviceId: r?.serviceId ?? '',
    kind: r?.kind ?? 'error_ratio',
    threshold: r ? (THRESHOLD_UNIT[r.kind] ? String(r.threshold) : '') : '5',
    forMinutes: String(r?.forMinutes ?? 5),
    enabled: r?.enabled ?? true,
  };
}

function toInput(v: Values): AlertRuleInput {
  return {
    name: v.name,
    serviceId: v.serviceId || null,
    kind: v.kind,
    threshold: THRESHOLD_UNIT[v.kind] ? Number(v.threshold) : 0,
    forMinutes: Number(v.forMinutes),
    enabled: v.enabled,
  };
}

export function RuleModal({ rule, open, onClose }: { rule?: AlertRule; open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['alerts', 'common']);
  const save = useSaveAlertRule();
  const services = useServiceChoices();
  const form = useForm<Values>({ resolver: zodResolver(schema), values: toValues(rule) });
  const { register, formState, watch } = form;
  const err = formState.errors;
  const kind: AlertKind = watch('kind');
  const unit = THRESHOLD_UNIT[kind];
  return (
    <FormModal
      open={open}
      onClose={onClose}
      form={form}
      id="alert-rule-form"
      title={rule ? t('list.edit', { name: rule.name }) : t('form.newTitle')}
      description={t('form.description')}
      submitLabel={t('common:actions.save')}
      serverErrors={{ known: (p) => /^(name|serviceId|kind|threshold|forMinutes)$/.test(p) }}
      onSubmit={async (v) => {
        await save.mutateAsync({ id: rule?.id, body: toInput(v) });
        onClose();
      }}
    >
      <Field label={t('common:words.name')} error={err.name?.message}>
        <input className="input" placeholder={t('form.namePlaceholder')} data-autofocus {...register(`name`)} />
      </Field>
      <div className="grid-2">
        <Field label={t('form.scope')} error={err.serviceId?.message}>
          <select className="select" {...register(`serviceId`)}>
            <option value="">{t('list.allServices')}</option>
            {(services.data ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('form.kind')} error={err.kind?.message}>
          <select className="select" {...register(`kind`)}>
            {ALERT_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`kinds.${k}`)}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="grid-2">
        {unit ? (
          <Field label={unit === 'percent' ? t('form.thresholdPercent') : t('form.thresholdMs')} error={err.threshold?.message}>
            <input className="input" inputMode="decimal" {...register(`threshold`)} />
          </Field>
        ) : null}
        <Field label={t('form.forMinutes')} hint={t('form.forHint', { max: MAX_MINUTES })} error={err.forMinutes?.message}>
          <input className="input" inputMode="numeric" {...register(`forMinutes`)} />
        </Field>
      </div>
      <p className="muted small">{t(`hints.${kind}`)}</p>
      <label className="checkbox">
        <input type="checkbox" {...register(`enabled`)} />
        <span className="checkbox-text">{t('common:words.enabled')}</span>
      </label>
    </FormModal>
  );
}
