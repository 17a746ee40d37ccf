import { useEffect, useRef } from 'react';
import { NavLink, useLocation } from 'react-router';

export function TabLinks({ tabs, label }: { tabs: { to: string; label: string; end?: boolean }[]; label: string }) {
  const ref = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  // On narrow screens the tab strip scrolls sideways: keep the current tab in view.
  useEffect(() => {
    const nav = ref.current;
    const active = nav?.querySelector<HTMLElement>('.tab.active');
    if (!nav || !active) return;
    const a = active.getBoundingClientRect();
    const n = nav.getBoundingClientRect();
    if (a.left < n.left || a.right > n.right) nav.scrollLeft += a.left - n.left - (n.width - a.width) / 2;
  }, [pathname]);
  return (
    <nav className="tabs" aria-label={label} ref={ref}>
      {tabs.map((t) => (
        <NavLink key={t.to} to={t.to} end={t.end} className={({ isActive }) => `tab${isActive ? ' active' : ''}`}>
          {t.label}
        </NavLink>
      ))}
    </nav>
  );
}

export function Tabs<T extends string>({ tabs, value, onChange, label }: { tabs: { id: T; label: string; count?: number }[]; value: T; onChange: (v: T) => void; label: string }) {
  return (
    <div className="tabs" role="tablist" aria-label={label}>
      {tabs.map((t) => (
        <button
          key={t.id}
          role="tab"
          type="button"
          className="tab"
          aria-selected={value === t.id}
          tabIndex={value === t.id ? 0 : -1}
          onClick={() => onChange(t.id)}
          onKeyDown={(e) => {
            const i = tabs.findIndex((x) => x.id === value);
            if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
              e.preventDefault();
              const next = tabs[(i + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
              if (next) onChange(next.id);
            }
          }}
        >
          {t.label}
          {t.count !== undefined ? <span className="badge">{t.count}</span> : null}
        </button>
      ))}
    </div>
  );
}
