import { useTranslation } from 'react-i18next';
import type { SeriesValues } from '@/lib/api/traffic';

/**
 * A tiny line of a series' shape, drawn as SVG: a list of a hundred services gets a hundred
 * small paths, not a hundred canvases. Steps without a value count as zero. The caller gives
 * an accessible label that says what the line sums up.
 */
export function Sparkline({
  values,
  width = 96,
  height = 28,
  label,
  fluid,
  tone,
}: {
  values: SeriesValues | number[];
  width?: number;
  height?: number;
  label: string;
  fluid?: boolean;
  /** A colour of the theme for the line (the text's colour by default). */
  tone?: 'primary' | 'success' | 'danger' | 'warning' | 'info';
}) {
  const { t } = useTranslation(['components', 'common']);
  if (values.length < 2) {
    return (
      <span className="faint small" aria-label={label}>
        {t('sparkline.noData')}
      </span>
    );
  }
  const nums = values.map((v) => (v === null || !Number.isFinite(v) ? 0 : v));
  const max = Math.max(...nums, 0.0001);
  const step = width / (nums.length - 1);
  const pts = nums.map((v, i) => [i * step, height - 2 - (v / max) * (height - 4)] as const);
  const d = pts.map(([x, y], i) => `${i ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
  const area = `${d} L${width},${height} L0,${height} Z`;
  return (
    <svg
      className="sparkline"
      width={fluid ? '100%' : width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio={fluid ? 'none' : undefined}
      role="img"
      aria-label={label}
      style={tone ? { color: `var(--${tone})` } : undefined}
    >
      <title>{label}</title>
      <path d={area} fill="currentColor" opacity={0.12} />
      <path d={d} fill="none" stroke="currentColor" strokeWidth={1.6} strokeLinejoin="round" vectorEffect="non-scaling-stroke" />
    </svg>
  );
}
