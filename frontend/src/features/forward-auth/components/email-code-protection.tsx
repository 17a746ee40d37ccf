import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { Switch } from '@/components/ui/switch';
import { TagInput } from '@/components/ui/tag-input';
import type { SecurityConfig } from '@/lib/api-types';
import i18n from '@/lib/i18n';
import { usePeopleMailChannel } from '../api/email-code';

type EmailCode = Extract<SecurityConfig, { type: 'email_code' }>;

/** The e-mail code protection's settings, as a form holds them. */
export type EmailCodeValue = { enabled: boolean; allowedEmails: string[]; sessionSeconds: number };

const DAY = 24 * 3600;
/** How long a visitor stays signed in: a count of hours or days, worded at render. */
export const sessionChoices: { seconds: number; unit: 'hours' | 'days' | 'minutes'; count: number }[] = [
  { seconds: 3600, unit: 'hours', count: 1 },
  { seconds: 8 * 3600, unit: 'hours', count: 8 },
  { seconds: DAY, unit: 'days', count: 1 },
  { seconds: 7 * DAY, unit: 'days', count: 7 },
  { seconds: 30 * DAY, unit: 'days', count: 30 },
  { seconds: 90 * DAY, unit: 'days', count: 90 },
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
  if (v.startsWith('*@')) return i18n.t('forward-auth:emailCode.allow.starAt');
  if (v.startsWith('*.')) return domain.test(v.slice(2)) ? null : i18n.t('forward-auth:emailCode.allow.afterStar');
  if (v.startsWith('@')) return domain.test(v.slice(1)) ? null : i18n.t('forward-auth:emailCode.allow.afterAt');
  if (v.includes('@')) {
    const [local, host, ...rest] = v.split('@');
    return local && host && rest.length === 0 && !/[\s,;<>()[\]\\"]/.test(local) && domain.test(host)
      ? null
      : i18n.t('forward-auth:emailCode.allow.oneAddress');
  }
  return domain.test(v) ? null : i18n.t('forward-auth:emailCode.allow.invalid');
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
  const { t } = useTranslation('forward-auth');
  const mail = usePeopleMailChannel();
  const choices = sessionChoices.some((c) => c.seconds === value.sessionSeconds)
    ? sessionChoices
    : [...sessionChoices, { seconds: value.sessionSeconds, unit: 'minutes' as const, count: Math.round(value.sessionSeconds / 60) }];
  return (
    <>
      {mail.data && !mail.data.mailChannelId ? (
        <Alert tone="warning" title={t('emailCode.noChannelTitle')}>
          <Trans t={t} i18nKey="emailCode.noChannel" components={{ a: <Link to="/notifications" /> }} />
        </Alert>
      ) : null}
      <Switch checked={value.enabled} onChange={(e) => onChange({ ...value, enabled: e.target.checked })} label={t('emailCode.enable')} />
      <Field
        label={t('emailCode.who')}
        error={errors.allowedEmails}
        hint={t('emailCode.whoHint')}
      >
        <TagInput
          value={value.allowedEmails}
          onChange={(allowedEmails) => onChange({ ...value, allowedEmails })}
          placeholder={t('emailCode.placeholder')}
          validate={allowEntryError}
        />
      </Field>
      <Field label={t('emailCode.session')} error={errors.sessionSeconds}>
        <select className="select" value={value.sessionSeconds} onChange={(e) => onChange({ ...value, sessionSeconds: Number(e.target.value) })}>
          {choices.map((c) => (
            <option key={c.seconds} value={c.seconds}>
              {t(`emailCode.sessionChoice.${c.unit}`, { count: c.count })}
            </option>
          ))}
        </select>
      </Field>
    </>
  );
}
