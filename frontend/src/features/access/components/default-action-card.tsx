import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Card, CardHeader } from '@/components/ui/card';
import type { AccessAction, DefaultAction } from '@/lib/api-types';
import { useCanWrite } from '@/lib/api/system';
import { actionLabels, protectionLabel, type RulesFormValues } from './rule-schema';

const options: { value: DefaultAction; label: string }[] = [
  { value: '', label: 'Automatic' },
  { value: 'allow', label: 'Allow' },
  { value: 'deny', label: 'Deny' },
  { value: 'authenticate', label: 'Authenticate' },
];

/** What happens to requests no rule matches; "automatic" follows the service's protections. */
export function DefaultActionCard({ protections, saved }: { protections: string[]; saved: DefaultAction }) {
  const { control } = useFormContext<RulesFormValues>();
  const value = useWatch({ control, name: 'defaultAction' });
  const automatic: AccessAction = protections.length ? 'authenticate' : 'allow';
  const effective: AccessAction = value || automatic;
  const names = protections.map(protectionLabel);
  const canWrite = useCanWrite();
  return (
    <Card>
      <CardHeader title="Default action" description="For requests that no rule (global or this service's) matches." />
      <div className="card-body stack-sm">
        <Controller
          control={control}
          name="defaultAction"
          render={({ field }) => (
            <div className="radio-cards" role="radiogroup" aria-label="Default action">
              {options.map((o) => (
                <label key={o.value || 'auto'} className="radio-card">
                  <input
                    type="radio"
                    name={field.name}
                    value={o.value}
                    checked={field.value === o.value}
                    disabled={!canWrite}
                    onChange={() => field.onChange(o.value)}
                    onBlur={field.onBlur}
                  />
                  <span>{o.label}</span>
                </label>
              ))}
            </div>
          )}
        />
        <p className="small" data-testid="effective-default">
          Effective: <strong>{actionLabels[effective]}</strong>
          <span className="muted">
            {value
              ? ''
              : names.length
                ? ` (automatic: the service has ${names.join(', ')})`
                : ' (automatic: the service has no protection, so it is public)'}
          </span>
        </p>
        {/* The saved state's warnings come from the server, above the form; this one follows the edit. */}
        {value !== saved && effective === 'authenticate' && protections.length === 0 ? (
          <Alert tone="warning" title="Nobody can authenticate">
            No protection is on for this service, so requests that reach the default are refused. Turn one on under Security.
          </Alert>
        ) : null}
      </div>
    </Card>
  );
}
