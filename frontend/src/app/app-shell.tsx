import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button, ButtonLink } from '@/components/ui/button';
import { Icon, type IconName } from '@/components/ui/icons';
import { LanguageSelect } from '@/components/ui/language-select';
import { formatVersion } from '@/lib/format';
import { useMe, useSystem } from '@/lib/api/system';
import { useTheme } from '@/lib/theme';
import { toast } from '@/lib/toast';
import { useLogout } from '@/features/sign-in/api/auth';

type NavItem = { to: string; label: NavLabel; icon: IconName; end?: boolean; managedOnly?: boolean };
type NavLabel =
  | 'dashboard'
  | 'services'
  | 'containers'
  | 'domains'
  | 'certificates'
  | 'credentialSets'
  | 'sessions'
  | 'accessRules'
  | 'machineTokens'
  | 'oidcClients'
  | 'accessLog'
  | 'runtime'
  | 'metrics'
  | 'conflicts'
  | 'managed'
  | 'system'
  | 'settings'
  | 'notifications'
  | 'alerts'
  | 'backups'
  | 'people'
  | 'groups'
  | 'apiTokens'
  | 'audit'
  | 'transfer';
// A group's title is its id (kept in the folded list in localStorage); its name is nav.groups.<id>.
const groups: { title: 'Overview' | 'Proxy' | 'Access' | 'Traefik' | 'System'; items: NavItem[] }[] = [
  { title: 'Overview', items: [{ to: '/', label: 'dashboard', icon: 'dashboard', end: true }] },
  {
    title: 'Proxy',
    items: [
      { to: '/services', label: 'services', icon: 'services' },
      { to: '/containers', label: 'containers', icon: 'box' },
      { to: '/domains', label: 'domains', icon: 'globe' },
      { to: '/certificates', label: 'certificates', icon: 'certificate' },
    ],
  },
  {
    title: 'Access',
    items: [
      { to: '/credential-sets', label: 'credentialSets', icon: 'key' },
      { to: '/sessions', label: 'sessions', icon: 'users' },
      { to: '/access-rules', label: 'accessRules', icon: 'filter' },
      { to: '/machine-tokens', label: 'machineTokens', icon: 'terminal' },
      { to: '/apps', label: 'oidcClients', icon: 'key' },
      { to: '/access-log', label: 'accessLog', icon: 'list' },
    ],
  },
  {
    title: 'Traefik',
    items: [
      { to: '/runtime', label: 'runtime', icon: 'layers' },
      { to: '/traefik-metrics', label: 'metrics', icon: 'activity' },
      { to: '/conflicts', label: 'conflicts', icon: 'alert' },
      { to: '/managed', label: 'managed', icon: 'server' },
    ],
  },
  {
    title: 'System',
    items: [
      { to: '/system', label: 'system', icon: 'server' },
      { to: '/settings', label: 'settings', icon: 'settings' },
      { to: '/notifications', label: 'notifications', icon: 'bell' },
      { to: '/alerts', label: 'alerts', icon: 'alert' },
      { to: '/backups', label: 'backups', icon: 'box' },
      { to: '/people', label: 'people', icon: 'user' },
      { to: '/groups', label: 'groups', icon: 'users' },
      { to: '/api-tokens', label: 'apiTokens', icon: 'code' },
      { to: '/audit', label: 'audit', icon: 'shield' },
      { to: '/transfer', label: 'transfer', icon: 'download' },
    ],
  },
];

/**
 * The navigation groups a person folded, kept across visits. Until they choose, Access and
 * Traefik start folded, so the System group's items stay in view on a 900-pixel-high screen.
 */
const FOLDED_KEY = 'gatehouse.nav.folded';
const FOLDED_DEFAULT = '["Access","Traefik"]';
function readFolded(): Set<string> {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(FOLDED_KEY) ?? FOLDED_DEFAULT);
    return new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  } catch {
    return new Set();
  }
}

export function AppShell() {
  const { t } = useTranslation(['app', 'common']);
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();
  const system = useSystem();
  const me = useMe();
  const theme = useTheme();
  const logout = useLogout();

  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  const managed = system.data?.managed ?? false;
  const [folded, setFolded] = useState<Set<string>>(readFolded);
  const toggleGroup = (title: string) =>
    setFolded((f) => {
      const next = new Set(f);
      if (next.has(title)) next.delete(title);
      else next.add(title);
      try {
        localStorage.setItem(FOLDED_KEY, JSON.stringify([...next]));
      } catch {
        // Private windows may refuse storage: the choice lasts for the page.
      }
      return next;
    });

  return (
    <div className="shell">
      <a
        href="#main"
        className="sr-only skip-link"
        onClick={(e) => {
          // Focus the content without a #main history entry: Back then leaves the page, as people expect.
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        {t('shell.skip')}
      </a>
      <aside className={`sidebar${open ? ' open' : ''}`} id="sidebar" aria-label={t('shell.mainNavigation')}>
        <div className="brand">
          <span className="brand-mark">
            <Icon name="shield" size={18} />
          </span>
          <span>
            {t('shell.brand')}
            <small>{t('shell.tagline')}</small>
          </span>
        </div>
        <nav className="nav">
          {groups.map((g) => {
            const items = g.items.filter((i) => !i.managedOnly || managed);
            if (!items.length) return null;
            // The group of the page shown is always open; the others as the person left them.
            const current = items.some((i) => (i.end ? location.pathname === i.to : location.pathname.startsWith(i.to)));
            const open = current || !folded.has(g.title);
            const id = `nav-group-${g.title.toLowerCase()}`;
            return (
              <div className="nav-group" key={g.title}>
                {g.title === 'Overview' ? (
                  <div className="nav-group-title">{t(`nav.groups.${g.title}`)}</div>
                ) : (
                  <button type="button" className="nav-group-title nav-group-toggle" aria-expanded={open} aria-controls={id} disabled={current} onClick={() => toggleGroup(g.title)}>
                    {t(`nav.groups.${g.title}`)}
                    <Icon name="chevronDown" size={13} />
                  </button>
                )}
                <div id={id} hidden={!open}>
                  {items.map((i) => (
                    <NavLink key={i.to} to={i.to} end={i.end} className={({ isActive }) => `nav-link${isActive ? ' active' : ''}`}>
                      <Icon name={i.icon} size={17} />
                      {t(`nav.items.${i.label}`)}
                    </NavLink>
                  ))}
                </div>
              </div>
            );
          })}
        </nav>
        <div className="sidebar-footer">{system.data ? `Gatehouse ${formatVersion(system.data.version)}` : ' '}</div>
      </aside>
      <div className={`scrim${open ? ' open' : ''}`} onClick={() => setOpen(false)} aria-hidden="true" />
      <div className="main">
        <header className="topbar">
          <Button
            variant="ghost"
            iconOnly
            icon="menu"
            className="menu-button"
            aria-label={t('shell.openNavigation')}
            aria-expanded={open}
            aria-controls="sidebar"
            onClick={() => setOpen((o) => !o)}
          />
          <div className="spacer" />
          <LanguageSelect />
          <Button
            variant="ghost"
            iconOnly
            icon={theme.resolved === 'dark' ? 'sun' : 'moon'}
            aria-label={theme.resolved === 'dark' ? t('shell.theme.toLight') : t('shell.theme.toDark')}
            title={theme.resolved === 'dark' ? t('shell.theme.light') : t('shell.theme.dark')}
            onClick={theme.toggle}
          />
          <ButtonLink variant="ghost" size="sm" icon="user" to="/account" title={t('shell.account.title')} aria-current={location.pathname === '/account' ? 'page' : undefined}>
            <span className="truncate topbar-name">{me.data?.user.username ?? t('shell.account.label')}</span>
          </ButtonLink>
          {me.data?.user.role === 'viewer' ? (
            <Badge tone="neutral" icon="eye" title={t('shell.viewer.title')}>
              {t('shell.viewer.label')}
            </Badge>
          ) : null}
          <Button
            variant="ghost"
            size="sm"
            icon="logout"
            loading={logout.isPending}
            onClick={() =>
              logout.mutate(undefined, {
                onSettled: () => {
                  toast.info(t('shell.signedOut'));
                  navigate('/login', { replace: true });
                },
              })
            }
          >
            <span className="topbar-label">{t('common:actions.signOut')}</span>
          </Button>
        </header>
        <main id="main" className="content" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
