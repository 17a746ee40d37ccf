import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { useServices, type LauncherService } from '../api/portal';

/** Groups in the order of their first service; services by the admin's order, then name. */
export function groupServices(services: LauncherService[]): { group: string; services: LauncherService[] }[] {
  const sorted = [...services].sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
  const groups = new Map<string, LauncherService[]>();
  for (const s of sorted) {
    const list = groups.get(s.group) ?? [];
    list.push(s);
    groups.set(s.group, list);
  }
  return [...groups].map(([group, list]) => ({ group, services: list }));
}

/** Only web addresses and small images are shown as icons: anything else is a letter. */
function ServiceIcon({ service }: { service: LauncherService }) {
  if (/^(https:\/\/|data:image\/)/.test(service.icon)) {
    return <img className="launcher-icon" src={service.icon} alt="" width={40} height={40} />;
  }
  return (
    <span className="launcher-icon launcher-letter" aria-hidden="true">
      {(service.name.trim()[0] ?? '?').toUpperCase()}
    </span>
  );
}

/** The services the signed-in person may open, as the admin grouped and ordered them. */
export function LauncherPage() {
  const { t } = useTranslation('portal');
  const services = useServices();
  // The page's heading stands whatever the list's state, so the page always says what it is.
  const heading = <h1 style={{ fontSize: '1.3rem', margin: 0 }}>{t('launcher.heading')}</h1>;
  if (services.isPending) return <LoadingRows />;
  if (services.isError) return <ErrorState error={services.error} onRetry={() => void services.refetch()} title={t('launcher.loadFailed')} />;
  if (services.data.length === 0) {
    return (
      <div className="stack">
        {heading}
        <EmptyState title={t('launcher.emptyTitle')}>{t('launcher.emptyText')}</EmptyState>
      </div>
    );
  }
  return (
    <div className="stack">
      {heading}
      {groupServices(services.data).map(({ group, services: list }) => (
        <section key={group || '-'} aria-label={group || t('launcher.ungrouped')}>
          {group ? <h2 className="launcher-group">{group}</h2> : null}
          <ul className="launcher-grid">
            {list.map((s) => (
              <li key={s.id}>
                <a className="launcher-tile" href={/^https?:\/\//.test(s.url) ? s.url : undefined}>
                  <ServiceIcon service={s} />
                  <span>
                    <strong>{s.name}</strong>
                    {s.description ? <span className="muted small launcher-desc">{s.description}</span> : null}
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
