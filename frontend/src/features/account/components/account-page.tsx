import { PageHeader } from '@/components/ui/card';
import { useMe } from '@/lib/api/system';
import { AppPasswordsCard } from './app-passwords-card';
import { PasswordCard } from './password-card';
import { SessionsCard } from './sessions-card';
import { TwoFactorCard } from './two-factor-card';

export function AccountPage() {
  const me = useMe();
  const username = me.data?.user.username;
  return (
    <>
      <PageHeader title="Account" description={username ? `Signed in as ${username}.` : 'Your administrator account.'} />
      <div className="stack">
        <PasswordCard username={username} />
        <TwoFactorCard />
        <SessionsCard />
        <AppPasswordsCard username={username} />
      </div>
    </>
  );
}
