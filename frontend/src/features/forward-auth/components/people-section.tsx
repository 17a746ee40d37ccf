import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/ui/field';
import { SignInAgeOptions } from '@/components/ui/sign-in-age-options';
import { Switch } from '@/components/ui/switch';
import { TagInput } from '@/components/ui/tag-input';
import { useDirectoryNames } from '../api/directory';
import type { ProtectionValues } from './protection-schema';
import { SectionCard } from './protection-section-card';
import type { SectionProps } from './protection-sections';

type Named = { id: string; name: string };

/** Ids on the wire, names on screen: an id the directory no longer has shows as itself. */
function NamePicker({ value, onChange, options, placeholder }: { value: string[]; onChange: (v: string[]) => void; options: Named[]; placeholder: string }) {
  const { t } = useTranslation('forward-auth');
  const nameOf = (id: string) => options.find((o) => o.id === id)?.name ?? id;
  const idOf = (name: string) => options.find((o) => o.name === name)?.id ?? name;
  return (
    <TagInput
      value={value.map(nameOf)}
      onChange={(names) => onChange(names.map(idOf))}
      suggestions={options.map((o) => o.name).filter((n) => !value.map(nameOf).includes(n))}
      validate={(n) => (options.some((o) => o.name === n) ? null : t('people.notInDirectory'))}
      placeholder={placeholder}
    />
  );
}

export function PeopleSection(_: SectionProps) {
  const { t } = useTranslation('forward-auth');
  const { register, control, formState } = useFormContext<ProtectionValues>();
  const enabled = useWatch<ProtectionValues, 'people.enabled'>({ name: 'people.enabled' });
  const maxAge = useWatch<ProtectionValues, 'people.maxAgeSeconds'>({ name: 'people.maxAgeSeconds' });
  const dir = useDirectoryNames();
  const errors = formState.errors.people;
  return (
    <SectionCard
      title={t('people.title')}
      icon="users"
      on={enabled}
      description={t('people.description')}
    >
      <Switch {...register('people.enabled')} label={t('people.require')} />
      <Field label={t('people.groups')} optional error={errors?.groups?.message}>
        <Controller
          control={control}
          name="people.groups"
          render={({ field }) => <NamePicker value={field.value} onChange={field.onChange} options={dir.groups} placeholder={t('people.groupsPlaceholder')} />}
        />
      </Field>
      <Field label={t('people.people')} optional error={errors?.people?.message}>
        <Controller
          control={control}
          name="people.people"
          render={({ field }) => <NamePicker value={field.value} onChange={field.onChange} options={dir.people} placeholder={t('people.peoplePlaceholder')} />}
        />
      </Field>
      <Switch {...register('people.secondFactor')} label={t('people.secondFactor')} />
      <Field label={t('people.maxAge')} error={errors?.maxAgeSeconds?.message}>
        <select {...register('people.maxAgeSeconds', { valueAsNumber: true })}>
          <SignInAgeOptions current={maxAge} />
        </select>
      </Field>
    </SectionCard>
  );
}
