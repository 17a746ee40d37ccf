import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Field, FieldErrorText } from '@/components/ui/field';
import { FormModal } from '@/components/ui/form-modal';
import { TagInput } from '@/components/ui/tag-input';
import type { Domain } from '@/lib/api-types';
import { useCertResolvers } from '@/lib/api/resources';
import { fieldsToHsts, hstsIssues, hstsToFields, mapHttpsPath } from '@/lib/hsts';
import i18n from '@/lib/i18n';
import { useSaveDomain } from '../api/domains';
import { resolverHint } from './resolver-hint';

const dnsName = /^(?=.{1,253}$)(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * What people paste into the domain field, cleaned as the server cleans it: "https://Example.com/"
 * becomes "example.com". A port, path or user stays, for the check to refuse.
 */
export function cleanDomainInput(text: string): string {
  let t = text.trim();
  const m = /^https?:\/\//i.exec(t);
  if (m) t = t.slice(m[0].length).replace(/\/$/, '');
  return t.toLowerCase().replace(/\.$/, '');
}

type SchemaKey = 'max100' | 'enterDomain' | 'domainAlone' | 'enterMain' | 'domainName' | 'seconds';
/** A form message in the current language, looked up when the check runs. */
const msg = (key: SchemaKey) => ({ error: () => i18n.t(`domains:schema.${key}`) });

const domainSchema = z
  .object({
  name: z.string().trim().max(100, msg('max100')),
  domain: z
    .string()
    .transform(cleanDomainInput)
    .pipe(z.string().min(1, msg('enterDomain')).regex(dnsName, msg('domainAlone'))),
  certResolver: z.string().trim(),
  wildcard: z.boolean(),
  isDefault: z.boolean(),
  certConfigs: z.array(
    z.object({
      main: z.string().trim().min(1, msg('enterMain')).regex(dnsName, msg('domainName')),
      sans: z.array(z.string()),
      resolver: z.string().trim(),
    }),
  ),
  httpsRedirect: z.boolean(),
  hstsOn: z.boolean(),
  hstsMaxAge: z.number(msg('seconds')),
  hstsIncludeSubdomains: z.boolean(),
  hstsPreload: z.boolean(),
}).superRefine((v, ctx) => {
  if (v.hstsOn) for (const i of hstsIssues(v)) ctx.addIssue({ code: 'custom', path: [i.path], message: i.message });
});
type Values = z.infer<typeof domainSchema>;

export function DomainFormModal({ domain, open, onClose, first }: { domain?: Domain; open: boolean; onClose: () => void; first: boolean }) {
  const { t } = useTranslation(['domains', 'common']);
  const resolvers = useCertResolvers();
  const save = useSaveDomain();
  const form = useForm<Values>({
    resolver: zodResolver(domainSchema),
    values: {
      name: domain?.name ?? '',
      domain: domain?.domain ?? '',
      certResolver: domain?.certResolver ?? '',
      wildcard: domain?.wildcard ?? false,
      isDefault: domain?.isDefault ?? first,
      certConfigs: (domain?.certConfigs ?? []).map((c) => ({ main: c.main, sans: [...(c.sans ?? [])], resolver: c.resolver ?? '' })),
      httpsRedirect: domain?.https?.redirect ?? false,
      hstsOn: (domain?.https?.hsts.maxAge ?? 0) > 0,
      ...hstsToFields(domain?.https?.hsts),
    },
  });
  const { register, control, formState, setValue } = form;
  const certs = useFieldArray({ control, name: 'certConfigs' });
  const hstsOn = useWatch({ control, name: 'hstsOn' });
  const resolverNames = resolvers.data?.items?.map((r) => r.name) ?? [];

  return (
    <FormModal
      open={open}
      onClose={onClose}
      form={form}
      id="domain-form"
      size="lg"
      title={domain ? t('form.editTitle', { domain: domain.domain }) : t('form.addTitle')}
      description={t('form.description')}
      submitLabel={domain ? t('form.save') : t('form.add')}
      serverErrors={{
        known: (p) => /^(name|domain|certResolver|wildcard|isDefault|certConfigs\.\d+\.(main|sans|resolver)|httpsRedirect|hstsMaxAge|hstsIncludeSubdomains|hstsPreload)$/.test(p),
        map: (p) => mapHttpsPath(p) ?? p.replace(/^(certConfigs\.\d+\.sans)\.\d+$/, '$1'),
      }}
      onSubmit={async (v) => {
        const { httpsRedirect, hstsOn, hstsMaxAge, hstsIncludeSubdomains, hstsPreload, ...rest } = v;
        const hsts = hstsOn ? fieldsToHsts({ hstsMaxAge, hstsIncludeSubdomains, hstsPreload }) : { maxAge: 0, includeSubdomains: false, preload: false };
        await save.mutateAsync({
          id: domain?.id,
          body: { ...rest, name: v.name || v.domain, domain: v.domain.toLowerCase(), https: { redirect: httpsRedirect, hsts } },
        });
        onClose();
      }}
    >
      <div className="grid-2">
        <Field label={t('form.domain')} error={formState.errors.domain?.message}>
          <input
            className="input mono"
            placeholder={t('form.domainPlaceholder')}
            autoCapitalize="off"
            spellCheck={false}
            data-autofocus
            {...register('domain', {
              // A pasted https://Example.com/ is shown cleaned at once.
              onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
                if (/^https?:\/\//i.test(e.target.value.trim())) setValue('domain', cleanDomainInput(e.target.value), { shouldDirty: true });
              },
            })}
          />
        </Field>
        <Field label={t('form.displayName')} optional error={formState.errors.name?.message}>
          <input className="input" placeholder={t('form.displayNamePlaceholder')} {...register('name')} />
        </Field>
      </div>
      <Field
        label={t('form.resolver')}
        optional
        error={formState.errors.certResolver?.message}
        hint={resolverHint(resolvers.data)}
      >
        <input className="input mono" list="resolver-options" placeholder={t('form.resolverPlaceholder')} {...register('certResolver')} />
      </Field>
      <datalist id="resolver-options">
        {resolverNames.map((r) => (
          <option key={r} value={r} />
        ))}
      </datalist>
      <label className="checkbox">
        <input type="checkbox" {...register('wildcard')} />
        <span className="checkbox-text">
          <span>{t('form.wildcard')}</span>
          <span className="field-hint">{t('form.wildcardHint')}</span>
        </span>
      </label>
      <label className="checkbox">
        <input type="checkbox" {...register('isDefault')} />
        <span className="checkbox-text">
          <span>{t('form.default')}</span>
          <span className="field-hint">{t('form.defaultHint')}</span>
        </span>
      </label>
      <div className="stack-sm">
        <span className="field-label">{t('form.httpsDefaults')}</span>
        <label className="checkbox">
          <input type="checkbox" {...register('httpsRedirect')} />
          <span className="checkbox-text">
            <span>{t('form.redirect')}</span>
            <span className="field-hint">{t('form.redirectHint')}</span>
          </span>
        </label>
        <label className="checkbox">
          <input type="checkbox" {...register('hstsOn')} />
          <span className="checkbox-text">
            <span>{t('form.hsts')}</span>
            <span className="field-hint">{t('form.hstsHint')}</span>
          </span>
        </label>
        {hstsOn ? (
          <div className="stack-sm" style={{ paddingLeft: 28 }}>
            <Field label={t('form.maxAge')} error={formState.errors.hstsMaxAge?.message} hint={t('form.maxAgeHint')}>
              <input className="input mono" style={{ maxWidth: 200 }} inputMode="numeric" {...register('hstsMaxAge', { valueAsNumber: true })} />
            </Field>
            <label className="checkbox">
              <input type="checkbox" {...register('hstsIncludeSubdomains')} />
              <span className="checkbox-text">
                <span>{t('form.includeSubdomains')}</span>
              </span>
            </label>
            <label className="checkbox">
              <input type="checkbox" {...register('hstsPreload')} />
              <span className="checkbox-text">
                <span>{t('form.preload')}</span>
                <span className="field-hint">{t('form.preloadHint')}</span>
              </span>
            </label>
            {formState.errors.hstsPreload?.message ? <FieldErrorText message={formState.errors.hstsPreload.message} /> : null}
          </div>
        ) : null}
      </div>
      <div className="stack-sm">
        <div className="row-between">
          <span className="field-label">
            {t('form.extraCerts')} <span className="optional">({t('common:words.optional')})</span>
          </span>
          <Button size="sm" icon="plus" onClick={() => certs.append({ main: '', sans: [], resolver: '' })}>
            {t('form.addCert')}
          </Button>
        </div>
        {certs.fields.length === 0 ? <p className="muted small">{t('form.extraCertsHint')}</p> : null}
        {certs.fields.map((f, i) => {
          const e = formState.errors.certConfigs?.[i];
          return (
            <div key={f.id} className="card" style={{ padding: 14 }}>
              <div className="stack-sm">
                <div className="grid-2">
                  <Field label={t('form.main')} error={e?.main?.message}>
                    <input className="input mono" placeholder={t('form.mainPlaceholder')} {...register(`certConfigs.${i}.main`)} />
                  </Field>
                  <Field label={t('form.certResolver')} optional error={e?.resolver?.message}>
                    <input className="input mono" list="resolver-options" placeholder={t('form.sameAsDomain')} {...register(`certConfigs.${i}.resolver`)} />
                  </Field>
                </div>
                <Field label={t('form.sans')} optional error={e?.sans?.message}>
                  <Controller control={control} name={`certConfigs.${i}.sans`} render={({ field }) => <TagInput value={field.value} onChange={field.onChange} placeholder={t('form.sansPlaceholder')} />} />
                </Field>
                {e?.root?.message ? <FieldErrorText message={e.root.message} /> : null}
                <div>
                  <Button size="sm" variant="ghost" icon="trash" onClick={() => certs.remove(i)}>
                    {t('form.removeCert')}
                  </Button>
                </div>
              </div>
            </div>
          );
        })}
      </div>
    </FormModal>
  );
}
