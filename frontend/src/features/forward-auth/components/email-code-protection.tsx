import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { ReadOnlyFieldset } from '@/components/ui/read-only';
import { Switch } from '@/components/ui/switch';
import { TagInput } from '@/components/ui/tag-input';
import type { SecurityConfig } from '@/lib/api-types';
import { useCanWrite } from '@/lib/api/system';
import { applyServerErrors } from '@/lib/form-errors';
import { usePeopleMailChannel } from '../api/email-code';
import { useSaveSecurityConfig } from '../api/security';

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
 * The fields of the e-mail code protection, controlled: a page that saves
 * every protection in one form renders these and sends the value with the
 * others (type email_code, allowedEmails, sessionSeconds).
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

/** The e-mail code protection as a card with its own save. */
export function EmailCodeProtection({ serviceId, config }: { serviceId: string; config?: EmailCode }) {
  const canWrite = useCanWrite();
  const save = useSaveSecurityConfig(serviceId);
  const [value, setValue] = useState<EmailCodeValue>(emailCodeValue(config));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const key = JSON.stringify(config ?? null);
  useEffect(() => {
    setValue(emailCodeValue(config));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const dirty = JSON.stringify(value) !== JSON.stringify(emailCodeValue(config));

  const submit = async () => {
    setErrors({});
    if (value.enabled && value.allowedEmails.length === 0) {
      return setErrors({ allowedEmails: 'Add at least one address or domain: an empty list lets no one in' });
    }
    try {
      await save.mutateAsync({ type: 'email_code', ...value });
    } catch (e) {
      const next: Record<string, string> = {};
      applyServerErrors(e, (p, err) => {
        next[String(p).split('[')[0]!] = err.message ?? 'Invalid';
      });
      setErrors(next);
    }
  };
  return (
    <Card>
      <CardHeader
        title="E-mail code"
        description="People without an account type their e-mail address and get a six-digit code. Codes work once, for 10 minutes; guessing is cut off after a few tries."
        actions={config?.enabled ? <Badge tone="success" icon="mail">On</Badge> : <Badge icon="power">Off</Badge>}
      />
      <ReadOnlyFieldset readOnly={!canWrite} className="card-body stack">
        <EmailCodeFields value={value} onChange={setValue} errors={errors} />
      </ReadOnlyFieldset>
      {canWrite ? (
        <div className="card-footer">
          <Button variant="primary" onClick={submit} loading={save.isPending} disabled={!dirty}>
            Save e-mail code
          </Button>
        </div>
      ) : null}
    </Card>
  );
}
