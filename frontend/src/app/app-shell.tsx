import { useEffect, useState } from 'react';
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

type NavItem = { to: string; label: string; icon: IconName; end?: boolean; managedOnly?: boolean };
const groups: { title: string; items: NavItem[] }[] = [
  { title: 'Overview', items: [{ to: '/', label: 'Dashboard', icon: 'dashboard', end: true }] },
  {
    title: 'Proxy',
    items: [
      { to: '/services', label: 'Services', icon: 'services' },
      { to: '/domains', label: 'Domains', icon: 'globe' },
      { to: '/certificates', label: 'Certificates', icon: 'certificate' },
    ],
  },
  {
    title: 'Access',
    items: [
      { to: '/credential-sets', label: 'Credential sets', icon: 'key' },
      { to: '/sessions', label: 'Sessions', icon: 'users' },
      { to: '/access-rules', label: 'Access rules', icon: 'filter' },
      { to: '/machine-tokens', label: 'Machine tokens', icon: 'terminal' },
      { to: '/access-log', label: 'Access log', icon: 'list' },
    ],
  },
  {
    title: 'Traefik',
    items: [
      { to: '/runtime', label: 'Runtime', icon: 'layers' },
      { to: '/metrics', label: 'Metrics', icon: 'activity' },
      { to: '/conflicts', label: 'Conflicts', icon: 'alert' },
      { to: '/managed', label: 'Managed Traefik', icon: 'server' },
    ],
  },
  {
    title: 'System',
    items: [
      { to: '/system', label: 'System', icon: 'server' },
      { to: '/settings', label: 'Settings', icon: 'settings' },
      { to: '/notifications', label: 'Notifications', icon: 'bell' },
      { to: '/backups', label: 'Backups', icon: 'box' },
      { to: '/people', label: 'People', icon: 'user' },
      { to: '/groups', label: 'Groups', icon: 'users' },
      { to: '/api-tokens', label: 'API tokens', icon: 'code' },
      { to: '/audit', label: 'Audit log', icon: 'shield' },
      { to: '/transfer', label: 'Export & import', icon: 'download' },
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
        Skip to content
      </a>
      <aside className={`sidebar${open ? ' open' : ''}`} id="sidebar" aria-label="Main navigation">
        <div className="brand">
          <span className="brand-mark">
            <Icon name="shield" size={18} />
          </span>
          <span>
            Gatehouse
            <small>Traefik control panel</small>
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
                  <div className="nav-group-title">{g.title}</div>
                ) : (
                  <button type="button" className="nav-group-title nav-group-toggle" aria-expanded={open} aria-controls={id} disabled={current} onClick={() => toggleGroup(g.title)}>
                    {g.title}
                    <Icon name="chevronDown" size={13} />
                  </button>
                )}
                <div id={id} hidden={!open}>
                  {items.map((i) => (
                    <NavLink key={i.to} to={i.to} end={i.end} className={({ isActive }) => `nav-link${isActive ? ' active' : ''}`}>
                      <Icon name={i.icon} size={17} />
                      {i.label}
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
            aria-label="Open navigation"
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
            aria-label={theme.resolved === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
            title={theme.resolved === 'dark' ? 'Light theme' : 'Dark theme'}
            onClick={theme.toggle}
          />
          <ButtonLink variant="ghost" size="sm" icon="user" to="/account" title="Your account: password and sessions" aria-current={location.pathname === '/account' ? 'page' : undefined}>
            <span className="truncate topbar-name">{me.data?.user.username ?? 'Account'}</span>
          </ButtonLink>
          {me.data?.user.role === 'viewer' ? (
            <Badge tone="neutral" icon="eye" title="You can look at everything but pages that show secrets, and change nothing.">
              Viewer
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
                  toast.info('Signed out');
                  navigate('/login', { replace: true });
                },
              })
            }
          >
            <span className="topbar-label">Sign out</span>
          </Button>
        </header>
        <main id="main" className="content" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
