import { Trans, useTranslation } from 'react-i18next';
import { CopyButton } from './copy-button';

/** The id the server logged a failure under, to quote when reporting it. */
export function RequestId({ id }: { id: string }) {
  const { t } = useTranslation(['components', 'common']);
  return (
    <span className="request-id small muted" data-testid="request-id">
      <Trans t={t} i18nKey="requestId.label" values={{ id }} components={{ code: <code /> }} />{' '}
      <CopyButton text={id} label={t('requestId.copy')} />
    </span>
  );
}

