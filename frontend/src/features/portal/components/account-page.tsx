import { useMe } from '@/lib/api/system';
import { AppPasswordsCard } from './account-app-passwords-card';
import { PasswordCard } from './account-password-card';
import { SessionsCard } from './account-sessions-card';
import { SignInCard } from './account-sign-in-card';

/** The person's own account on the portal: how they sign in, and where they are signed in. */
export function PortalAccountPage() {
  const me = useMe();
  const user = me.data?.user;
  return (
    <div className="stack portal-account">
      <div>
        <h1 style={{ fontSize: '1.3rem', margin: 0 }}>Your account</h1>
        <p className="muted">
          {user ? <>Signed in as <strong>{user.username}</strong>. </> : null}
          Change how you sign in, and see where you are signed in.
        </p>
      </div>
      <PasswordCard username={user?.username} />
      <SignInCard />
      <SessionsCard />
      <AppPasswordsCard username={user?.username} />
    </div>
  );
}
