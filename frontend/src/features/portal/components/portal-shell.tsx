import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { LanguageSelect } from '@/components/ui/language-select';
import { useMe } from '@/lib/api/system';
import { usePortalLogout } from '../api/portal';
import { PortalBrand, usePortalStyle } from './portal-layout';

/** The signed-in portal: the brand, the two pages and signing out, on a phone as on a desk. */
export function PortalShell() {
  const { t } = useTranslation('portal');
  const style = usePortalStyle();
  const me = useMe();
  const logout = usePortalLogout();
  const navigate = useNavigate();
  const signOut = async (everywhere: boolean) => {
    try {
      await logout.mutateAsync(everywhere);
    } finally {
      navigate('/login', { replace: true });
    }
  };
  return (
    <div className="portal" style={style}>
      <header className="portal-header">
        <PortalBrand />
        <nav aria-label={t('shell.navLabel')} className="portal-nav">
          <NavLink to="/" end>
            {t('shell.services')}
          </NavLink>
          <NavLink to="/account">{t('shell.account')}</NavLink>
        </nav>
        <div className="portal-user">
          <LanguageSelect />
          {me.data?.user.username ? <span className="muted small">{me.data.user.username}</span> : null}
          <Button size="sm" onClick={() => void signOut(false)} loading={logout.isPending && logout.variables === false}>
            {t('shell.signOut')}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => void signOut(true)} loading={logout.isPending && logout.variables === true}>
            {t('shell.signOutEverywhere')}
          </Button>
        </div>
      </header>
      <main className="portal-main">
        <Outlet />
      </main>
    </div>
  );
}
