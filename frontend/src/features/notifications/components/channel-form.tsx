import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type UseFormRegister } from 'react-hook-form';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import i18n from '@/lib/i18n';
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
    name: z
      .string()
      .trim()
      .min(1, { error: () => i18n.t('notifications:schema.name') })
      .max(100, { error: () => i18n.t('notifications:schema.atMost', { max: 100 }) }),
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
    const add = (path: string[], key: SchemaKey) => ctx.addIssue({ code: 'custom', path, message: i18n.t(`notifications:schema.${key}`) });
    const st = v.settings;
    const has = (n: SecretName) => v.secrets[n] !== '' || v.secretsSet.includes(n);
    const needsHost = v.kind === 'ntfy' || v.kind === 'gotify' || v.kind === 'email';
    if (needsHost) {
      if (!st.host) add(['settings', 'host'], 'enterHost');
      else if (!hostRE.test(st.host)) add(['settings', 'host'], 'badHost');
      if (st.port && (!/^\d+$/.test(st.port) || Number(st.port) < 1 || Number(st.port) > 65535)) add(['settings', 'port'], 'badPort');
    }
    if (v.kind === 'ntfy' && !topicRE.test(st.topic)) add(['settings', 'topic'], 'badTopic');
    if (v.kind === 'gotify') {
      if (!pathRE.test(st.path)) add(['settings', 'path'], 'badPath');
      if (!has('token')) add(['secrets', 'token'], 'enterAppToken');
    }
    if ((v.kind === 'discord' || v.kind === 'slack' || v.kind === 'webhook') && !has('webhookUrl')) add(['secrets', 'webhookUrl'], 'enterWebhook');
    if (v.kind === 'webhook' && v.secrets.webhookUrl && !/^https?:\/\/[^/\s]+/.test(v.secrets.webhookUrl)) add(['secrets', 'webhookUrl'], 'badWebhook');
    if (v.kind === 'telegram') {
      if (!has('token')) add(['secrets', 'token'], 'enterBotToken');
      const ids = list(st.chatIds);
      if (ids.length === 0) add(['settings', 'chatIds'], 'enterChat');
      else if (ids.some((c) => !chatRE.test(c))) add(['settings', 'chatIds'], 'badChat');
    }
    if (v.kind === 'email') {
      if (!emailRE.test(st.from)) add(['settings', 'from'], 'enterFrom');
      const to = list(st.to);
      if (to.length === 0 && v.events.length > 0) add(['settings', 'to'], 'enterTo');
      else if (to.some((a) => !emailRE.test(a))) add(['settings', 'to'], 'badTo');
    }
  });
type SchemaKey =
  | 'enterHost'
  | 'badHost'
  | 'badPort'
  | 'badTopic'
  | 'badPath'
  | 'enterAppToken'
  | 'enterWebhook'
  | 'badWebhook'
  | 'enterBotToken'
  | 'enterChat'
  | 'badChat'
  | 'enterFrom'
  | 'enterTo'
  | 'badTo';
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
  const { t } = useTranslation(['notifications', 'common']);
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
      title={channel ? t('list.edit', { name: channel.name }) : t('form.newTitle')}
      description={t('form.description')}
      submitLabel={t('common:actions.save')}
      serverErrors={{ map: mapPath, known: (p) => /^(name|kind|events|settings\.\w+|secrets\.\w+)$/.test(p) }}
      onSubmit={async (v) => {
        await save.mutateAsync({ id: channel?.id, body: toInput(v) });
        onClose();
      }}
    >
      <div className="grid-2">
        <Field label={t('common:words.name')} error={err.name?.message}>
          <input className="input" placeholder={t('form.namePlaceholder')} data-autofocus {...register(`name`)} />
        </Field>
        <Field label={t('list.service')} error={err.kind?.message}>
          <select className="select" {...register(`kind`)} disabled={!!channel}>
            {CHANNEL_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`kinds.${k}`)}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <KindFields kind={kind} register={register} errors={err} secret={secret} />
      <fieldset className="stack-sm" style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }} aria-describedby={err.events ? 'events-err' : undefined}>
        <legend className="field-label">{t('list.events')}</legend>
        <div className="grid-2">
          {EVENT_KINDS.map((e) => (
            <label key={e} className="checkbox">
              <input type="checkbox" value={e} {...register(`events`)} />
              <span className="checkbox-text">{t(`events.${e}`)}</span>
            </label>
          ))}
        </div>
        {err.events?.message ? <p id="events-err" className="field-error">{err.events.message}</p> : null}
      </fieldset>
      <label className="checkbox">
        <input type="checkbox" {...register(`enabled`)} />
        <span className="checkbox-text">{t('common:words.enabled')}</span>
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
  const { t } = useTranslation('notifications');
  const e = errors.settings;
  const host = (placeholder: string) => (
    <div className="grid-2">
      <Field label={t('form.server')} error={e?.host?.message}>
        <input className="input" placeholder={placeholder} autoComplete="off" {...register(`settings.host`)} />
      </Field>
      <Field label={t('form.port')} optional error={e?.port?.message}>
        <input className="input" inputMode="numeric" placeholder={t('form.portDefault')} {...register(`settings.port`)} />
      </Field>
    </div>
  );
  const plain = (
    <label className="checkbox">
      <input type="checkbox" {...register(`settings.plainHttp`)} />
      <span className="checkbox-text">{t('form.plainHttp')}</span>
    </label>
  );
  switch (kind) {
    case 'ntfy':
      return (
        <>
          {host(t('form.hostPlaceholders.ntfy'))}
          <Field label={t('form.topic')} error={e?.topic?.message}>
            <input className="input" autoComplete="off" {...register(`settings.topic`)} />
          </Field>
          <Field label={t('form.username')} optional hint={t('form.usernameHint')} error={e?.username?.message}>
            <input className="input" autoComplete="off" {...register(`settings.username`)} />
          </Field>
          <div className="grid-2">
            {secret(`password`, t('form.password'))}
            {secret(`token`, t('form.accessToken'))}
          </div>
          {plain}
        </>
      );
    case 'gotify':
      return (
        <>
          {host(t('form.hostPlaceholders.gotify'))}
          <Field label={t('form.path')} optional hint={t('form.pathHint')} error={e?.path?.message}>
            <input className="input" autoComplete="off" {...register(`settings.path`)} />
          </Field>
          {secret(`token`, t('form.appToken'))}
          {plain}
        </>
      );
    case 'discord':
      return secret('webhookUrl', t('form.webhookUrl'), t('form.discordHint'));
    case 'slack':
      return secret('webhookUrl', t('form.webhookUrl'), t('form.slackHint'));
    case 'telegram':
      return (
        <>
          {secret(`token`, t('form.botToken'), t('form.botTokenHint'))}
          <Field label={t('form.chats')} hint={t('form.chatsHint')} error={e?.chatIds?.message}>
            <input className="input" autoComplete="off" {...register(`settings.chatIds`)} />
          </Field>
        </>
      );
    case 'email':
      return (
        <>
          {host(t('form.hostPlaceholders.email'))}
          <div className="grid-2">
            <Field label={t('form.from')} error={e?.from?.message}>
              <input className="input" type="email" autoComplete="off" {...register(`settings.from`)} />
            </Field>
            <Field
              label={t('form.to')}
              optional
              hint={t('form.toHint')}
              error={e?.to?.message}
            >
              <input className="input" autoComplete="off" {...register(`settings.to`)} />
            </Field>
          </div>
          <div className="grid-2">
            <Field label={t('form.username')} optional error={e?.username?.message}>
              <input className="input" autoComplete="off" {...register(`settings.username`)} />
            </Field>
            {secret(`password`, t('form.password'))}
          </div>
          <Field label={t('form.encryption')} error={e?.encryption?.message}>
            <select className="select" {...register(`settings.encryption`)}>
              <option value="starttls">STARTTLS</option>
              <option value="tls">TLS</option>
              <option value="none">{t('form.encryptionNone')}</option>
            </select>
          </Field>
        </>
      );
    case 'webhook':
      return secret('webhookUrl', t('form.webhookUrl'), t('form.webhookHint'));
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
  const { t } = useTranslation('notifications');
  return (
    <Field label={label} optional={!isSet ? undefined : true} hint={isSet ? t('form.secretSet') : hint} error={error}>
      <input className="input" type="password" autoComplete="new-password" placeholder={isSet ? t('form.secretPlaceholder') : ''} {...register(`secrets.${name}`)} />
    </Field>
  );
}
