import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type UseFormRegister } from 'react-hook-form';
import { z } from 'zod';
import { Field } from '@/components/ui/field';
import { FormModal } from '@/components/ui/form-modal';
import type { Channel, ChannelInput, ChannelKind, EventKind, SecretName } from '@/lib/api-types';
import { CHANNEL_KINDS, EVENT_KINDS, useSaveChannel } from '../api/notifications';

// The same shapes the server checks (internal/notify/urls.go).
const hostRE = /^([A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*|[0-9a-fA-F:.]+)$/;
const topicRE = /^[A-Za-z0-9_-]{1,64}$/;
const pathRE = /^(\/[A-Za-z0-9._~-]+)*\/?$/;
const chatRE = /^(-?[0-9]{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/;
const emailRE = /^[^\s@<>,;"]+@[^\s@<>,;"]+$/;

const list = (s: string) =>
  s
    .split(/[\s,]+/)
    .map((x) => x.trim())
    .filter(Boolean);

const schema = z
  .object({
    name: z.string().trim().min(1, 'Give the channel a name').max(100, 'At most 100 characters'),
    kind: z.enum(['ntfy', 'gotify', 'discord', 'slack', 'telegram', 'email', 'webhook']),
    enabled: z.boolean(),
    events: z.array(z.string()),
    settings: z.object({
      host: z.string().trim(),
      port: z.string().trim(),
      plainHttp: z.boolean(),
      path: z.string().trim(),
      topic: z.string().trim(),
      username: z.string(),
      chatIds: z.string(),
      from: z.string().trim(),
      to: z.string(),
      encryption: z.enum(['none', 'starttls', 'tls']),
    }),
    secrets: z.object({ password: z.string(), token: z.string(), webhookUrl: z.string().trim() }),
    secretsSet: z.array(z.string()),
  })
  .superRefine((v, ctx) => {
    const add = (path: string[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const st = v.settings;
    const has = (n: SecretName) => v.secrets[n] !== '' || v.secretsSet.includes(n);
    const needsHost = v.kind === 'ntfy' || v.kind === 'gotify' || v.kind === 'email';
    if (needsHost) {
      if (!st.host) add(['settings', 'host'], 'Enter the server’s host name');
      else if (!hostRE.test(st.host)) add(['settings', 'host'], 'A host name or IP address, without scheme or path');
      if (st.port && (!/^\d+$/.test(st.port) || Number(st.port) < 1 || Number(st.port) > 65535)) add(['settings', 'port'], 'Between 1 and 65535');
    }
    if (v.kind === 'ntfy' && !topicRE.test(st.topic)) add(['settings', 'topic'], '1 to 64 letters, digits, - or _');
    if (v.kind === 'gotify') {
      if (!pathRE.test(st.path)) add(['settings', 'path'], 'A path like /gotify');
      if (!has('token')) add(['secrets', 'token'], 'Enter the application token');
    }
    if ((v.kind === 'discord' || v.kind === 'slack' || v.kind === 'webhook') && !has('webhookUrl')) add(['secrets', 'webhookUrl'], 'Enter the webhook URL');
    if (v.kind === 'webhook' && v.secrets.webhookUrl && !/^https?:\/\/[^/\s]+/.test(v.secrets.webhookUrl)) add(['secrets', 'webhookUrl'], 'An http:// or https:// URL');
    if (v.kind === 'telegram') {
      if (!has('token')) add(['secrets', 'token'], 'Enter the bot token');
      const ids = list(st.chatIds);
      if (ids.length === 0) add(['settings', 'chatIds'], 'Enter at least one chat');
      else if (ids.some((c) => !chatRE.test(c))) add(['settings', 'chatIds'], 'Chat ids are numbers, channels start with @');
    }
    if (v.kind === 'email') {
      if (!emailRE.test(st.from)) add(['settings', 'from'], 'Enter the sender’s address');
      const to = list(st.to);
      if (to.length === 0 && v.events.length > 0) add(['settings', 'to'], 'Enter at least one address to receive the events');
      else if (to.some((a) => !emailRE.test(a))) add(['settings', 'to'], 'Enter e-mail addresses separated by commas');
    }
  });
type Values = z.infer<typeof schema>;

function toValues(c?: Channel): Values {
  const s = c?.settings ?? {};
  return {
    name: c?.name ?? '',
    kind: c?.kind ?? 'webhook',
    enabled: c?.enabled ?? true,
    events: c?.events ?? ['cert_expiring', 'cert_expired', 'backend_down', 'backend_recovered'],
    settings: {
      host: s.host ?? '',
      port: s.port ? String(s.port) : '',
      plainHttp: s.plainHttp ?? false,
      path: s.path ?? '',
      topic: s.topic ?? '',
      username: s.username ?? '',
      chatIds: (s.chatIds ?? []).join(', '),
      from: s.from ?? '',
      to: (s.to ?? []).join(', '),
      encryption: s.encryption || 'starttls',
    },
    secrets: { password: '', token: '', webhookUrl: '' },
    secretsSet: c?.secretsSet ?? [],
  };
}

function toInput(v: Values): ChannelInput {
  const st = v.settings;
  return {
    name: v.name,
    kind: v.kind,
    enabled: v.enabled,
    events: v.events as EventKind[],
    settings: {
      host: st.host || undefined,
      port: st.port ? Number(st.port) : undefined,
      plainHttp: st.plainHttp || undefined,
      path: st.path || undefined,
      topic: st.topic || undefined,
      username: st.username || undefined,
      chatIds: v.kind === 'telegram' ? list(st.chatIds) : undefined,
      from: st.from || undefined,
      to: v.kind === 'email' ? list(st.to) : undefined,
      encryption: v.kind === 'email' ? st.encryption : undefined,
    },
    secrets: {
      password: v.secrets.password || undefined,
      token: v.secrets.token || undefined,
      webhookUrl: v.secrets.webhookUrl || undefined,
    },
  };
}

/** Server paths onto form fields: list entries belong to the list's text field. */
function mapPath(p: string): string | null {
  const m = /^settings\.(chatIds|to)\.\d+$/.exec(p);
  if (m) return `settings.${m[1]}`;
  if (/^events\.\d+$/.test(p)) return 'events';
  return p;
}

export function ChannelModal({ channel, open, onClose }: { channel?: Channel; open: boolean; onClose: () => void }) {
  const save = useSaveChannel();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    values: toValues(channel),
  });
  const { register, formState, watch } = form;
  const kind = watch('kind');
  const secretsSet = watch('secretsSet');
  const err = formState.errors;
  const secret = (name: SecretName, label: string, hint?: string) => (
    <SecretField name={name} label={label} hint={hint} isSet={secretsSet.includes(name)} error={err.secrets?.[name]?.message} register={register} />
  );
  return (
    <FormModal
      open={open}
      onClose={onClose}
      form={form}
      id="channel-form"
      size="lg"
      title={channel ? `Edit ${channel.name}` : 'New notification channel'}
      description="Where Gatehouse sends notifications. Secrets are stored encrypted and never shown again."
      submitLabel="Save"
      serverErrors={{ map: mapPath, known: (p) => /^(name|kind|events|settings\.\w+|secrets\.\w+)$/.test(p) }}
      onSubmit={async (v) => {
        await save.mutateAsync({ id: channel?.id, body: toInput(v) });
        onClose();
      }}
    >
      <div className="grid-2">
        <Field label="Name" error={err.name?.message}>
          <input className="input" placeholder="Ops chat" data-autofocus {...register('name')} />
        </Field>
        <Field label="Service" error={err.kind?.message}>
          <select className="select" {...register('kind')} disabled={!!channel}>
            {CHANNEL_KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>{k.label}</option>
            ))}
          </select>
        </Field>
      </div>
      <KindFields kind={kind} register={register} errors={err} secret={secret} />
      <fieldset className="stack-sm" style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }} aria-describedby={err.events ? 'events-err' : undefined}>
        <legend className="field-label">Events</legend>
        <div className="grid-2">
          {EVENT_KINDS.map((e) => (
            <label key={e.kind} className="checkbox">
              <input type="checkbox" value={e.kind} {...register('events')} />
              <span className="checkbox-text">{e.label}</span>
            </label>
          ))}
        </div>
        {err.events?.message ? <p id="events-err" className="field-error">{err.events.message}</p> : null}
      </fieldset>
      <label className="checkbox">
        <input type="checkbox" {...register('enabled')} />
        <span className="checkbox-text">Enabled</span>
      </label>
    </FormModal>
  );
}

type Errors = ReturnType<typeof useForm<Values>>['formState']['errors'];

function KindFields({
  kind,
  register,
  errors,
  secret,
}: {
  kind: ChannelKind;
  register: UseFormRegister<Values>;
  errors: Errors;
  secret: (name: SecretName, label: string, hint?: string) => React.ReactNode;
}) {
  const e = errors.settings;
  const host = (placeholder: string) => (
    <div className="grid-2">
      <Field label="Server" error={e?.host?.message}>
        <input className="input" placeholder={placeholder} autoComplete="off" {...register('settings.host')} />
      </Field>
      <Field label="Port" optional error={e?.port?.message}>
        <input className="input" inputMode="numeric" placeholder="default" {...register('settings.port')} />
      </Field>
    </div>
  );
  const plain = (
    <label className="checkbox">
      <input type="checkbox" {...register('settings.plainHttp')} />
      <span className="checkbox-text">Plain HTTP (no TLS)</span>
    </label>
  );
  switch (kind) {
    case 'ntfy':
      return (
        <>
          {host('ntfy.sh')}
          <Field label="Topic" error={e?.topic?.message}>
            <input className="input" autoComplete="off" {...register('settings.topic')} />
          </Field>
          <Field label="Username" optional hint="With a password; or leave empty and use an access token." error={e?.username?.message}>
            <input className="input" autoComplete="off" {...register('settings.username')} />
          </Field>
          <div className="grid-2">
            {secret('password', 'Password')}
            {secret('token', 'Access token')}
          </div>
          {plain}
        </>
      );
    case 'gotify':
      return (
        <>
          {host('gotify.example.com')}
          <Field label="Path" optional hint="When Gotify is served under a sub-path, e.g. /gotify." error={e?.path?.message}>
            <input className="input" autoComplete="off" {...register('settings.path')} />
          </Field>
          {secret('token', 'Application token')}
          {plain}
        </>
      );
    case 'discord':
      return secret('webhookUrl', 'Webhook URL', 'https://discord.com/api/webhooks/…');
    case 'slack':
      return secret('webhookUrl', 'Webhook URL', 'https://hooks.slack.com/services/…');
    case 'telegram':
      return (
        <>
          {secret('token', 'Bot token', 'From @BotFather, like 123456:ABC…')}
          <Field label="Chats" hint="Chat ids or @channel names, separated by commas." error={e?.chatIds?.message}>
            <input className="input" autoComplete="off" {...register('settings.chatIds')} />
          </Field>
        </>
      );
    case 'email':
      return (
        <>
          {host('smtp.example.com')}
          <div className="grid-2">
            <Field label="From" error={e?.from?.message}>
              <input className="input" type="email" autoComplete="off" {...register('settings.from')} />
            </Field>
            <Field
              label="To"
              optional
              hint="Who receives the events, separated by commas. A channel that only mails people (sign-in codes) needs none: its test goes to the From address."
              error={e?.to?.message}
            >
              <input className="input" autoComplete="off" {...register('settings.to')} />
            </Field>
          </div>
          <div className="grid-2">
            <Field label="Username" optional error={e?.username?.message}>
              <input className="input" autoComplete="off" {...register('settings.username')} />
            </Field>
            {secret('password', 'Password')}
          </div>
          <Field label="Encryption" error={e?.encryption?.message}>
            <select className="select" {...register('settings.encryption')}>
              <option value="starttls">STARTTLS</option>
              <option value="tls">TLS</option>
              <option value="none">None</option>
            </select>
          </Field>
        </>
      );
    case 'webhook':
      return secret('webhookUrl', 'Webhook URL', 'Receives a JSON POST with "title" and "message".');
  }
}

/** A write-only secret: shown as "set" with a field that replaces it. */
function SecretField({
  name,
  label,
  hint,
  isSet,
  error,
  register,
}: {
  name: SecretName;
  label: string;
  hint?: string;
  isSet: boolean;
  error?: string;
  register: UseFormRegister<Values>;
}) {
  return (
    <Field label={label} optional={!isSet ? undefined : true} hint={isSet ? 'Set. Enter a new value to replace it.' : hint} error={error}>
      <input className="input" type="password" autoComplete="new-password" placeholder={isSet ? '•••••••• (set)' : ''} {...register(`secrets.${name}`)} />
    </Field>
  );
}
