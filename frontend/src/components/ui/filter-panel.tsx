import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';

type FilterPanelProps = {
  /** What the filters narrow, for assistive technology: "Audit log filters". */
  label: string;
  /** How many filters are set; the phone's button says so. */
  active: number;
  className?: string;
  /** In a toolbar row rather than at the top of a card. */
  inline?: boolean;
  children: ReactNode;
};

/**
 * A list's filters. On a desk they show in full; on a phone (640 px and
 * narrower) they fold behind one "Filters" button, so the first entry is on
 * the first screen. The button says how many filters are set.
 */
export function FilterPanel({ label, active, className, inline, children }: FilterPanelProps) {
  const { t } = useTranslation('components');
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className={['filter-panel', open && 'open', inline && 'filter-panel-inline'].filter(Boolean).join(' ')}>
      <div className="filter-toggle">
        <Button size="sm" icon="filter" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
          {active > 0 ? t('filterPanel.buttonActive', { count: active }) : t('filterPanel.button')}
        </Button>
      </div>
      <div id={id} role="search" aria-label={label} className={['filter-panel-body', className].filter(Boolean).join(' ')}>
        {children}
      </div>
    </div>
  );
}
