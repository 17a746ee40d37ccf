import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import i18n from '@/lib/i18n';

function download(codes: string[]) {
  const blob = new Blob([`${i18n.t('account:recoveryCodes.fileHeading')}\n\n${codes.join('\n')}\n`], { type: 'text/plain' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = 'gatehouse-recovery-codes.txt';
  a.click();
  URL.revokeObjectURL(url);
}

/** New recovery codes, shown once: the server keeps only their hashes. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('account');
  return (
    <Alert tone="warning" title={t('recoveryCodes.title')}>
      <p>{t('recoveryCodes.text')}</p>
      <ol className="mono recovery-codes" aria-label={t('recoveryCodes.listLabel')} style={{ columns: 2, margin: '12px 0' }}>
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
      <div className="row">
        <CopyButton text={codes.join('\n')} label={t('recoveryCodes.copy')} />
        <Button size="sm" icon="download" onClick={() => download(codes)}>
          {t('recoveryCodes.download')}
        </Button>
        <Button size="sm" variant="primary" icon="check" onClick={onDone}>
          {t('recoveryCodes.saved')}
        </Button>
      </div>
    </Alert>
  );
}
