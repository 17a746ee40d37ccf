import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { FormModal } from '@/components/ui/form-modal';
import type { Container } from '@/lib/api-types';
import i18n from '@/lib/i18n';
import { useCreateFromContainer } from '../api/containers';
import { placement, tcpPorts } from './placement';

const hostname = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;
const schemes = ['http', 'https', 'h2c'] as const;

type SchemaKey = 'nameRequired' | 'hostname' | 'port';
const msg = (key: SchemaKey) => ({ error: () => i18n.t(`containers:schema.${key}`) });

const schema = z.object({
  name: z.string().trim().min(1, msg('nameRequired')).max(100, msg('nameRequired')),
  hostname: z.string().trim().toLowerCase().regex(hostname, msg('hostname')),
  network: z.string(),
  port: z.number(msg('port')).int(msg('port')).min(1, msg('port')).max(65535, msg('port')),
  scheme: z.enum(schemes),
});
type Values = z.infer<typeof schema>;

/** "Create service from this container": the target filled in, with where and why. */
export function CreateServiceModal({ container, onClose }: { container: Container | null; onClose: () => void }) {
  const { t } = useTranslation(['containers', 'common']);
  const create = useCreateFromContainer();
  const navigate = useNavigate();
  const c = container;
  const ports = c ? tcpPorts(c) : [];
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    values: {
      name: c?.name ?? '',
      hostname: c?.labels['gatehouse.hostname']?.split(',')[0]?.trim() ?? '',
      network: '',
      port: c?.suggestion?.port ?? ports[0] ?? 80,
      scheme: 'http',
    },
  });
  const { register, formState, control } = form;
  const network = useWatch({ control, name: 'network' });
  const port = useWatch({ control, name: 'port' });
  const where = c ? placement(c, network, Number(port)) : undefined;
  return (
    <FormModal
      open={!!c}
      onClose={onClose}
      form={form}
      id="container-service-form"
      title={t('create.title', { name: c?.name ?? '' })}
      description={t('create.description')}
      submitLabel={t('create.submit')}
      serverErrors={{
        known: (p) => /^(network|port|scheme|service\.name|service\.hostnames.*)$/.test(p),
        map: (p) => (p === 'service.name' ? 'name' : p.startsWith('service.hostnames') ? 'hostname' : p),
      }}
      onSubmit={async (v) => {
        if (!c) return;
        const made = await create.mutateAsync({
          container: c.name,
          network: v.network,
          port: v.port,
          scheme: v.scheme,
          service: { name: v.name, hostnames: [{ type: 'custom', value: v.hostname }] },
        });
        onClose();
        navigate(`/services/${made.service.id}?created`);
      }}
    >
      <div className="grid-2">
        <Field label={t('create.name')} error={formState.errors.name?.message}>
          <input className="input" data-autofocus {...register(`name`)} />
        </Field>
        <Field label={t('create.hostname')} error={formState.errors.hostname?.message} hint={t('create.hostnameHint')}>
          <input className="input mono" placeholder={t('create.hostnamePlaceholder')} autoCapitalize="off" spellCheck={false} {...register(`hostname`)} />
        </Field>
      </div>
      <div className="grid-2">
        <Field label={t('create.network')} error={formState.errors.network?.message}>
          <select className="select" {...register(`network`)}>
            <option value="">{t('create.networkAuto')}</option>
            {(c?.networks ?? [])
              .filter((n) => n.address)
              .map((n) => (
                <option key={n.name} value={n.name}>
                  {n.traefik ? t('create.networkShared', { name: n.name, address: n.address }) : t('create.networkOther', { name: n.name, address: n.address })}
                </option>
              ))}
          </select>
        </Field>
        <Field label={t('create.port')} error={formState.errors.port?.message} hint={ports.length ? t('create.portHint', { ports: ports.join(', ') }) : t('create.portNone')}>
          <input className="input mono" type="number" min={1} max={65535} list="container-ports" {...register(`port`, { valueAsNumber: true })} />
        </Field>
      </div>
      <datalist id="container-ports">
        {ports.map((p) => (
          <option key={p} value={p} />
        ))}
      </datalist>
      <Field label={t('create.scheme')}>
        <select className="select" {...register(`scheme`)}>
          {schemes.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </Field>
      {where ? (
        <Alert tone={where.via === 'unshared_network' ? 'warning' : 'info'} title={t('create.target', { target: `${where.host || t('create.engineHost')}:${where.targetPort}` })}>
          {t(`create.why.${where.via}`, { network: where.network, port: where.targetPort })}
        </Alert>
      ) : (
        <Alert tone="warning" title={t('create.noTarget')}>
          {c?.suggestionError ?? t('create.noTargetBody')}
        </Alert>
      )}
    </FormModal>
  );
}
