import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { Button } from './button';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API needs a secure context; fall back to a hidden textarea.
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.style.position = 'fixed';
    ta.style.opacity = '0';
    document.body.appendChild(ta);
    ta.select();
    let ok: boolean;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    ta.remove();
    return ok;
  }
}

export function CopyButton({ text, label, size = 'sm' }: { text: string; label?: string; size?: 'sm' | 'md' }) {
  const { t } = useTranslation(['components', 'common']);
  const [copied, setCopied] = useState(false);
  return (
    <Button
      size={size}
      icon={copied ? 'check' : 'copy'}
      onClick={async () => {
        const ok = await copyText(text);
        if (ok) {
          setCopied(true);
          toast.success(t('copy.done'));
          window.setTimeout(() => setCopied(false), 1500);
        } else {
          toast.error(t('copy.failed'));
        }
      }}
    >
      {copied ? t('common:actions.copied') : (label ?? t('common:actions.copy'))}
    </Button>
  );
}
