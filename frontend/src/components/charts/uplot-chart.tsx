import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export type PlotOptions = Omit<uPlot.Options, 'width' | 'height'>;

/**
 * uPlot in React: the plot is made when the options change (a new theme, other series),
 * fed new data in place, sized to its container's width as that changes, and destroyed
 * when the component goes away. `options` must keep its identity between renders (useMemo)
 * or the plot is made again each time. `xRange` fixes the time axis (a whole window even
 * where its ends have no points, or a zoomed part of it).
 */
export function UPlotChart({
  options,
  data,
  height,
  xRange,
  className,
}: {
  options: PlotOptions;
  data: uPlot.AlignedData;
  height: number;
  xRange?: readonly [number, number];
  className?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  // The latest data and range, for a plot made again after an options change.
  const latest = useRef({ data, xRange });
  latest.current = { data, xRange };

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = Math.max(1, Math.floor(el.clientWidth));
    const u = new uPlot({ ...options, width, height }, latest.current.data, el);
    plot.current = u;
    const range = latest.current.xRange;
    if (range) u.setScale('x', { min: range[0], max: range[1] });
    let observer: ResizeObserver | undefined;
    if (typeof ResizeObserver !== 'undefined') {
      observer = new ResizeObserver((entries) => {
        const w = Math.floor(entries[0]?.contentRect.width ?? 0);
        if (w > 0 && w !== u.width) u.setSize({ width: w, height });
      });
      observer.observe(el);
    }
    return () => {
      observer?.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [options, height]);

  const min = xRange?.[0];
  const max = xRange?.[1];
  useEffect(() => {
    const u = plot.current;
    if (!u) return;
    u.setData(data, min === undefined);
    if (min !== undefined && max !== undefined) u.setScale('x', { min, max });
  }, [data, min, max]);

  return <div ref={box} className={['uplot-box', className].filter(Boolean).join(' ')} />;
}
