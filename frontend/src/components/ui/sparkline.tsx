import { useTranslation } from 'react-i18next';

/** Tiny SVG line chart; the caller gives it an accessible label summarising the data. */
export function Sparkline({ values, width = 96, height = 28, label, fluid }: { values: number[]; width?: number; height?: number; label: string; fluid?: boolean }) {
  const { t } = useTranslation(['components', 'common']);
  if (values.length < 2) {
    return (
      <span className="faint small" aria-label={label}>
        {t('sparkline.noData')}
      </span>
    );
  }
  const max = Math.max(...values, 0.0001);
  const step = width / (values.length - 1);
  const pts = values.map((v, i) => [i * step, height - 2 - (v / max) * (height - 4)] as const);
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
    >
      <path d={area} fill="currentColor" opacity={0.12} />
      <path d={d} fill="none" stroke="currentColor" strokeWidth={1.6} strokeLinejoin="round" vectorEffect="non-scaling-stroke" />
    </svg>
  );
}
