import { useTranslation } from 'react-i18next';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Card, CardHeader } from '@/components/ui/card';
import type { AccessAction, DefaultAction } from '@/lib/api-types';
import { useCanWrite } from '@/lib/api/system';
import { actionLabel, protectionLabel, type RulesFormValues } from './rule-schema';

const options: DefaultAction[] = ['', 'allow', 'deny', 'authenticate'];

/** What happens to requests no rule matches; "automatic" follows the service's protections. */
export function DefaultActionCard({ protections, saved }: { protections: string[]; saved: DefaultAction }) {
  const { t } = useTranslation('access');
  const { control } = useFormContext<RulesFormValues>();
  const value = useWatch({ control, name: 'defaultAction' });
  const automatic: AccessAction = protections.length ? 'authenticate' : 'allow';
  const effective: AccessAction = value || automatic;
  const names = protections.map(protectionLabel);
  const canWrite = useCanWrite();
  return (
    <Card>
      <CardHeader title={t('default.title')} description={t('default.description')} />
      <div className="card-body stack-sm">
        <Controller
          control={control}
          name="defaultAction"
          render={({ field }) => (
            <div className="radio-cards" role="radiogroup" aria-label={t('default.title')}>
              {options.map((o) => (
                <label key={o || 'auto'} className="radio-card">
                  <input
                    type="radio"
                    name={field.name}
                    value={o}
                    checked={field.value === o}
                    disabled={!canWrite}
                    onChange={() => field.onChange(o)}
                    onBlur={field.onBlur}
                  />
                  <span>{o ? actionLabel(o) : t('default.automatic')}</span>
                </label>
              ))}
            </div>
          )}
        />
        <p className="small" data-testid="effective-default">
          {t('default.effective')} <strong>{actionLabel(effective)}</strong>
          <span className="muted">
            {value ? '' : names.length ? ` ${t('default.automaticHas', { names: names.join(', ') })}` : ` ${t('default.automaticPublic')}`}
          </span>
        </p>
        {/* The saved state's warnings come from the server, above the form; this one follows the edit. */}
        {value !== saved && effective === 'authenticate' && protections.length === 0 ? (
          <Alert tone="warning" title={t('default.nobody')}>
            {t('default.nobodyText')}
          </Alert>
        ) : null}
      </div>
    </Card>
  );
}
