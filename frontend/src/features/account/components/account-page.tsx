import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/ui/card';
import { useMe } from '@/lib/api/system';
import { AppPasswordsCard } from './app-passwords-card';
import { PasswordCard } from './password-card';
import { SessionsCard } from './sessions-card';
import { TwoFactorCard } from './two-factor-card';

export function AccountPage() {
  const { t } = useTranslation('account');
  const me = useMe();
  const username = me.data?.user.username;
  return (
    <>
      <PageHeader title={t('page.title')} description={username ? t('page.signedInAs', { username }) : t('page.description')} />
      <div className="stack">
        <PasswordCard username={username} />
        <TwoFactorCard />
        <SessionsCard />
        <AppPasswordsCard username={username} />
      </div>
    </>
  );
}
