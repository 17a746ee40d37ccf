import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ReadOnlyNote } from '@/components/ui/read-only';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { useCanWrite } from '@/lib/api/system';
import { useProtection, useSaveProtection } from '../api/security';
import { ProtectionForm } from './protection-form';
import { SharedLinksCard } from './shared-links-card';

export function ServiceSecurityPage() {
  const { t } = useTranslation('forward-auth');
  const { id = '' } = useParams();
  const protection = useProtection(id);
  const save = useSaveProtection(id);
  const canWrite = useCanWrite();
  if (protection.isPending) return <LoadingRows rows={6} />;
  if (protection.isError) return <ErrorState error={protection.error} onRetry={() => protection.refetch()} title={t('page.loadFailed')} />;
  return (
    <div className="stack" style={{ gap: 20 }}>
      <p className="muted">
        {t('page.intro')}
      </p>
      {canWrite ? null : <ReadOnlyNote />}
      <ProtectionForm
        serviceId={id}
        initial={protection.data}
        canWrite={canWrite}
        saving={save.isPending}
        onSave={(p) => save.mutateAsync(p)}
      />
      <SharedLinksCard serviceId={id} enabled={protection.data.sharedLinks?.enabled ?? false} />
    </div>
  );
}
