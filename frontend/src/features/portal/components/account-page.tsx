import { Trans, useTranslation } from 'react-i18next';
import { useMe } from '@/lib/api/system';
import { AppPasswordsCard } from './account-app-passwords-card';
import { PasswordCard } from './account-password-card';
import { SessionsCard } from './account-sessions-card';
import { SignInCard } from './account-sign-in-card';

/** The person's own account on the portal: how they sign in, and where they are signed in. */
export function PortalAccountPage() {
  const { t } = useTranslation('portal');
  const me = useMe();
  const user = me.data?.user;
  return (
    <div className="stack portal-account">
      <div>
        <h1 style={{ fontSize: '1.3rem', margin: 0 }}>{t('accountPage.heading')}</h1>
        <p className="muted">
          {user ? (
            <>
              <Trans t={t} i18nKey="accountPage.signedInAs" values={{ username: user.username }} components={{ strong: <strong /> }} />{' '}
            </>
          ) : null}
          {t('accountPage.intro')}
        </p>
      </div>
      <PasswordCard username={user?.username} />
      <SignInCard />
      <SessionsCard />
      <AppPasswordsCard username={user?.username} />
    </div>
  );
}
