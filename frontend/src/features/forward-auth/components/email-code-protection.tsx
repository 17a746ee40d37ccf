import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { Switch } from '@/components/ui/switch';
import { TagInput } from '@/components/ui/tag-input';
import type { SecurityConfig } from '@/lib/api-types';
import { usePeopleMailChannel } from '../api/email-code';

type EmailCode = Extract<SecurityConfig, { type: 'email_code' }>;

/** The e-mail code protection's settings, as a form holds them. */
export type EmailCodeValue = { enabled: boolean; allowedEmails: string[]; sessionSeconds: number };

const DAY = 24 * 3600;
export const sessionChoices: { seconds: number; label: string }[] = [
  { seconds: 3600, label: '1 hour' },
  { seconds: 8 * 3600, label: '8 hours' },
  { seconds: DAY, label: '1 day' },
  { seconds: 7 * DAY, label: '7 days' },
  { seconds: 30 * DAY, label: '30 days' },
  { seconds: 90 * DAY, label: '90 days' },
];

export function emailCodeValue(config?: EmailCode): EmailCodeValue {
  return { enabled: config?.enabled ?? false, allowedEmails: config?.allowedEmails ?? [], sessionSeconds: config?.sessionSeconds ?? DAY };
}

/**
 * Checks one allow-list entry as the server does: an address
 * (ann@example.com), a domain (example.com or @example.com) or its
 * subdomains (*.example.com).
 */
export function allowEntryError(raw: string): string | null {
  const v = raw.trim().toLowerCase();
  const domain = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
  if (v.startsWith('*@')) return 'To allow a whole domain, enter it without *@ (example.com)';
  if (v.startsWith('*.')) return domain.test(v.slice(2)) ? null : 'Enter a domain after *.';
  if (v.startsWith('@')) return domain.test(v.slice(1)) ? null : 'Enter a domain after @';
  if (v.includes('@')) {
    const [local, host, ...rest] = v.split('@');
    return local && host && rest.length === 0 && !/[\s,;<>()[\]\\"]/.test(local) && domain.test(host)
      ? null
      : 'Enter one e-mail address, such as ann@example.com';
  }
  return domain.test(v) ? null : 'Enter an address, a domain (example.com) or *.example.com';
}

/**
 * The fields of the e-mail code protection, controlled: the Security tab's
 * protection form renders them in its e-mail code section and saves them
 * with the others.
 */
export function EmailCodeFields({
  value,
  onChange,
  errors = {},
}: {
  value: EmailCodeValue;
  onChange: (v: EmailCodeValue) => void;
  errors?: Record<string, string | undefined>;
}) {
  const mail = usePeopleMailChannel();
  const choices = sessionChoices.some((c) => c.seconds === value.sessionSeconds)
    ? sessionChoices
    : [...sessionChoices, { seconds: value.sessionSeconds, label: `${Math.round(value.sessionSeconds / 60)} minutes` }];
  return (
    <>
      {mail.data && !mail.data.mailChannelId ? (
        <Alert tone="warning" title="No e-mail channel sends the codes">
          Add an e-mail channel under <Link to="/notifications">Notifications</Link> and choose it as the channel that mails people. Until then
          visitors are told a code is on its way, and none arrives.
        </Alert>
      ) : null}
      <Switch checked={value.enabled} onChange={(e) => onChange({ ...value, enabled: e.target.checked })} label="Let visitors in with a code sent by e-mail" />
      <Field
        label="Who may ask for a code"
        error={errors.allowedEmails}
        hint="E-mail addresses (ann@example.com), whole domains (example.com) or their subdomains (*.example.com). Anyone else is told the same thing and gets no mail."
      >
        <TagInput
          value={value.allowedEmails}
          onChange={(allowedEmails) => onChange({ ...value, allowedEmails })}
          placeholder="ann@example.com or example.com"
          validate={allowEntryError}
        />
      </Field>
      <Field label="Visitors stay signed in for" error={errors.sessionSeconds}>
        <select className="select" value={value.sessionSeconds} onChange={(e) => onChange({ ...value, sessionSeconds: Number(e.target.value) })}>
          {choices.map((c) => (
            <option key={c.seconds} value={c.seconds}>
              {c.label}
            </option>
          ))}
        </select>
      </Field>
    </>
  );
}
