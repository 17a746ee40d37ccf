import { PageHeader } from '@/components/ui/card';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { useGlobalRules, useSaveGlobalRules } from '../api/access';
import { RulesForm } from './rules-form';
import { formToRule, toFormValues } from './rule-schema';

/** Rules checked before every service's own rules. */
export function GlobalRulesPage() {
  const rules = useGlobalRules();
  const save = useSaveGlobalRules();
  return (
    <>
      <PageHeader
        title="Global access rules"
        description="Checked before each service's own rules, for every service. Test them from a service's Access tab once saved."
      />
      {rules.isPending ? (
        <LoadingRows rows={6} />
      ) : rules.isError ? (
        <ErrorState error={rules.error} onRetry={() => rules.refetch()} title="Could not load the global rules" />
      ) : (
        <RulesForm
          initial={toFormValues(rules.data.rules ?? [])}
          geoip={rules.data.geoip}
          saving={save.isPending}
          title="Global rules"
          opens="every service"
          onSave={async (v, confirmPublic) => {
            const saved = await save.mutateAsync({ rules: v.rules.map(formToRule), ...(confirmPublic ? { confirmPublic } : {}) });
            return toFormValues(saved.rules ?? []);
          }}
        />
      )}
    </>
  );
}
