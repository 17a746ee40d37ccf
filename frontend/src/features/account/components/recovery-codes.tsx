import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';

function download(codes: string[]) {
  const blob = new Blob([`Gatehouse recovery codes (each works once)\n\n${codes.join('\n')}\n`], { type: 'text/plain' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = 'gatehouse-recovery-codes.txt';
  a.click();
  URL.revokeObjectURL(url);
}

/** New recovery codes, shown once: the server keeps only their hashes. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Alert tone="warning" title="Save your recovery codes">
      <p>
        Each code signs you in once if you lose your authenticator. They are shown only now: store them in a password
        manager or print them.
      </p>
      <ol className="mono recovery-codes" aria-label="Recovery codes" style={{ columns: 2, margin: '12px 0' }}>
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
      <div className="row">
        <CopyButton text={codes.join('\n')} label="Copy codes" />
        <Button size="sm" icon="download" onClick={() => download(codes)}>
          Download
        </Button>
        <Button size="sm" variant="primary" icon="check" onClick={onDone}>
          I have saved them
        </Button>
      </div>
    </Alert>
  );
}
