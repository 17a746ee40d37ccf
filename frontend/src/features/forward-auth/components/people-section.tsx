import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { Field } from '@/components/ui/field';
import { Switch } from '@/components/ui/switch';
import { TagInput } from '@/components/ui/tag-input';
import { useDirectoryNames } from '../api/directory';
import type { ProtectionValues } from './protection-schema';
import { SectionCard } from './protection-section-card';
import type { SectionProps } from './protection-sections';

type Named = { id: string; name: string };

/** Ids on the wire, names on screen: an id the directory no longer has shows as itself. */
function NamePicker({ value, onChange, options, placeholder }: { value: string[]; onChange: (v: string[]) => void; options: Named[]; placeholder: string }) {
  const nameOf = (id: string) => options.find((o) => o.id === id)?.name ?? id;
  const idOf = (name: string) => options.find((o) => o.name === name)?.id ?? name;
  return (
    <TagInput
      value={value.map(nameOf)}
      onChange={(names) => onChange(names.map(idOf))}
      suggestions={options.map((o) => o.name).filter((n) => !value.map(nameOf).includes(n))}
      validate={(n) => (options.some((o) => o.name === n) ? null : 'Not in the directory')}
      placeholder={placeholder}
    />
  );
}

const ages = [
  { label: 'No limit', value: 0 },
  { label: '1 hour', value: 3600 },
  { label: '12 hours', value: 12 * 3600 },
  { label: '1 day', value: 24 * 3600 },
  { label: '7 days', value: 7 * 24 * 3600 },
];

export function PeopleSection(_: SectionProps) {
  const { register, control, formState } = useFormContext<ProtectionValues>();
  const enabled = useWatch<ProtectionValues, 'people.enabled'>({ name: 'people.enabled' });
  const dir = useDirectoryNames();
  const errors = formState.errors.people;
  return (
    <SectionCard
      title="People and groups"
      icon="users"
      on={enabled}
      description="People of the directory sign in once on the portal and open the service without signing in again. Empty lists admit everyone signed in."
    >
      <Switch {...register('people.enabled')} label="Require a person's sign-in" />
      <Field label="Allowed groups" optional error={errors?.groups?.message}>
        <Controller
          control={control}
          name="people.groups"
          render={({ field }) => <NamePicker value={field.value} onChange={field.onChange} options={dir.groups} placeholder="family" />}
        />
      </Field>
      <Field label="Allowed people" optional error={errors?.people?.message}>
        <Controller
          control={control}
          name="people.people"
          render={({ field }) => <NamePicker value={field.value} onChange={field.onChange} options={dir.people} placeholder="ann" />}
        />
      </Field>
      <Switch {...register('people.secondFactor')} label="Requires a second factor (asked for on the portal when missing)" />
      <Field label="Maximum sign-in age" error={errors?.maxAgeSeconds?.message}>
        <select {...register('people.maxAgeSeconds', { valueAsNumber: true })}>
          {ages.map((a) => (
            <option key={a.value} value={a.value}>
              {a.label}
            </option>
          ))}
        </select>
      </Field>
    </SectionCard>
  );
}
