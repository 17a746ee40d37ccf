import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/ui/card';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { useGlobalRules, useSaveGlobalRules } from '../api/access';
import { RulesForm } from './rules-form';
import { formToRule, toFormValues } from './rule-schema';

/** Rules checked before every service's own rules. */
export function GlobalRulesPage() {
  const { t } = useTranslation('access');
  const rules = useGlobalRules();
  const save = useSaveGlobalRules();
  return (
    <>
      <PageHeader
        title={t('global.title')}
        description={t('global.description')}
      />
      {rules.isPending ? (
        <LoadingRows rows={6} />
      ) : rules.isError ? (
        <ErrorState error={rules.error} onRetry={() => rules.refetch()} title={t('global.loadFailed')} />
      ) : (
        <RulesForm
          initial={toFormValues(rules.data.rules ?? [])}
          geoip={rules.data.geoip}
          saving={save.isPending}
          title={t('global.rules')}
          opens={t('global.everyService')}
          onSave={async (v, confirmPublic) => {
            const saved = await save.mutateAsync({ rules: v.rules.map(formToRule), ...(confirmPublic ? { confirmPublic } : {}) });
            return toFormValues(saved.rules ?? []);
          }}
        />
      )}
    </>
  );
}
