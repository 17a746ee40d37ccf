import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { StreamNotice, useStreamKind } from '@/components/status/stream-notice';
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
  const stream = useStreamKind(id);
  if (protection.isPending) return <LoadingRows rows={6} />;
  if (protection.isError) return <ErrorState error={protection.error} onRetry={() => protection.refetch()} title={t('page.loadFailed')} />;
  if (stream) {
    // A TCP or UDP service takes no protection; one left on by an older release is shown so it can be turned off.
    const p = protection.data;
    const leftover = !!(p.basicAuth?.enabled || p.sso?.enabled || p.sharedLinks?.enabled || p.tokens?.enabled || p.emailCode?.enabled || p.people?.enabled);
    return (
      <div className="stack" style={{ gap: 20 }}>
        <StreamNotice kind={stream} leftover={leftover} />
        {leftover ? <ProtectionForm serviceId={id} initial={p} canWrite={canWrite} saving={save.isPending} onSave={(v) => save.mutateAsync(v)} /> : null}
      </div>
    );
  }
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
