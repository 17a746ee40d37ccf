import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/ui/field';
import { TagInput } from '@/components/ui/tag-input';
import { isIpOrCidr } from '@/lib/netaddr';
import { Section, type Sub } from './form-section';

const tlsModes = ['passthrough', 'terminate', 'none'] as const;
const proxyVersions = ['0', '1', '2'] as const;

/**
 * A tcp service's options: how TLS is handled (HostSNI needs it), the PROXY
 * protocol to the targets, the address allow list and the connection limit.
 */
export function TcpSection({ control, register, errors }: Sub) {
  const { t } = useTranslation('services');
  return (
    <Section title={t('stream.tcpTitle')} description={t('stream.tcpDescription')}>
      <div className="stack">
        <div className="grid-2">
          <Field label={t('stream.tls')} error={errors.tcpTls?.message} hint={t('stream.tlsHint')}>
            <select className="select" {...register(`tcpTls`)}>
              {tlsModes.map((m) => (
                <option key={m} value={m}>
                  {t(`stream.tlsModes.${m}`)}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('stream.proxyProtocol')} error={errors.tcpProxyProtocol?.message} hint={t('stream.proxyProtocolHint')}>
            <select className="select" {...register(`tcpProxyProtocol`)}>
              {proxyVersions.map((v) => (
                <option key={v} value={v}>
                  {t(`stream.proxyVersions.v${v}`)}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Field label={t('stream.allowList')} optional error={errors.tcpAllowList?.message} hint={t('stream.allowListHint')}>
          <Controller
            control={control}
            name="tcpAllowList"
            render={({ field }) => (
              <TagInput
                value={field.value}
                onChange={field.onChange}
                placeholder={t('stream.allowListPlaceholder')}
                validate={(v) => (isIpOrCidr(v.trim()) ? null : t('schema.ipOrCidr'))}
              />
            )}
          />
        </Field>
        <Field label={t('stream.maxConnections')} error={errors.tcpMaxConnections?.message} hint={t('stream.maxConnectionsHint')}>
          <input className="input mono" inputMode="numeric" style={{ maxWidth: 200 }} {...register(`tcpMaxConnections`, { valueAsNumber: true })} />
        </Field>
      </div>
    </Section>
  );
}
