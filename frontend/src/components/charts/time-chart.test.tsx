import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatInstant } from '@/lib/format';
import { FakePlot } from '@/test/fake-uplot';
import { isolated, stackValues, TimeChart, type ChartSeries } from './time-chart';

beforeEach(() => {
  FakePlot.instances = [];
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const time = [1000, 1060, 1120];
const series: ChartSeries[] = [
  { key: 'a', label: 'Two', tone: 'success', values: [1, 2, null] },
  { key: 'b', label: 'Five', tone: 'danger', values: [0, 3, null] },
];

describe('stackValues', () => {
  it.each([
    { name: 'sums from the bottom up', in: [[1, 2], [3, 4]], want: [[1, 2], [4, 6]] },
    { name: 'null where no series has a value', in: [[null, 1], [null, 1]], want: [[null, 1], [null, 2]] },
    { name: 'a null counts as nothing on top of a value', in: [[2, null], [null, 5]], want: [[2, null], [2, 5]] },
    { name: 'shorter series', in: [[1], [1, 1]], want: [[1, null], [2, 1]] },
  ])('$name', ({ in: input, want }) => {
    expect(stackValues(input)).toEqual(want);
  });
});

describe('isolated', () => {
  it.each([
    { name: 'a lone value between gaps', in: [null, 3, null], want: [1] },
    { name: 'values at both ends with gaps beside them', in: [1, null, null, 2], want: [0, 3] },
    { name: 'a run of values draws a line', in: [1, 2, null], want: [] },
    { name: 'a single value', in: [5], want: [0] },
  ])('$name', ({ in: input, want }) => {
    expect(isolated(input)).toEqual(want);
  });
});

describe('TimeChart', () => {
  it('stacks bars top first, fixes the window, and shows values and time on hover', () => {
    render(<TimeChart kind="bars" time={time} series={series} format={(v) => `${v} req`} stepSeconds={60} window={[900, 1200]} label="Requests" />);
    expect(FakePlot.live()).toHaveLength(1);
    const plot = FakePlot.live()[0]!;
    // Drawn top of the stack first: the plot's first series is the sum, the last the bottom one.
    expect(plot.data).toEqual([time, [1, 5, null], [1, 2, null]]);
    expect(plot.opts.series.slice(1).map((s) => s.label)).toEqual(['Five', 'Two']);
    expect(plot.scaleX).toEqual({ min: 900, max: 1200 });
    expect(screen.getByRole('img', { name: 'Requests' })).toBeInTheDocument();

    plot.cursor.idx = 1;
    act(() => plot.fire('setCursor'));
    expect(screen.getByText(formatInstant(1060))).toBeInTheDocument();
    expect(screen.getByText('2 req')).toBeInTheDocument();
    expect(screen.getByText('3 req')).toBeInTheDocument();
    // The stack's total beside the series.
    expect(screen.getByText('5 req')).toBeInTheDocument();

    plot.cursor.idx = 2;
    act(() => plot.fire('setCursor'));
    expect(screen.getAllByText('—')).toHaveLength(2);
  });

  it('draws lines with their own values, gaps left as null', () => {
    render(<TimeChart kind="lines" time={time} series={series} format={String} stepSeconds={60} label="Latency" />);
    const plot = FakePlot.live()[0]!;
    expect(plot.data).toEqual([time, [1, 2, null], [0, 3, null]]);
    expect(plot.opts.series[1]).toMatchObject({ label: 'Two', spanGaps: false });
    // Without a window the time axis runs from the first step to the end of the last.
    expect(plot.scaleX).toEqual({ min: 1000, max: 1180 });
  });

  it('hands a drag to onZoom', () => {
    const onZoom = vi.fn();
    render(<TimeChart kind="bars" time={time} series={series} format={String} stepSeconds={60} onZoom={onZoom} label="R" />);
    const plot = FakePlot.live()[0]!;
    plot.select = { left: 1010.4, top: 0, width: 100, height: 50 };
    act(() => plot.fire('setSelect'));
    expect(onZoom).toHaveBeenCalledWith(1010, 1111);
    // The selection is cleared for the next drag.
    expect(plot.select.width).toBe(0);
  });

  it('ignores a click that is not a drag', () => {
    const onZoom = vi.fn();
    render(<TimeChart kind="bars" time={time} series={series} format={String} stepSeconds={60} onZoom={onZoom} label="R" />);
    const plot = FakePlot.live()[0]!;
    plot.select = { left: 10, top: 0, width: 2, height: 50 };
    act(() => plot.fire('setSelect'));
    expect(onZoom).not.toHaveBeenCalled();
  });

  it('zooms on its own without onZoom, and Reset zoom goes back to the whole window', () => {
    render(<TimeChart kind="bars" time={time} series={series} format={String} stepSeconds={60} window={[900, 1200]} label="R" />);
    const plot = FakePlot.live()[0]!;
    plot.select = { left: 1000, top: 0, width: 60, height: 50 };
    act(() => plot.fire('setSelect'));
    expect(plot.scaleX).toEqual({ min: 1000, max: 1060 });
    fireEvent.click(screen.getByRole('button', { name: 'Reset zoom' }));
    expect(plot.scaleX).toEqual({ min: 900, max: 1200 });
    expect(screen.queryByRole('button', { name: 'Reset zoom' })).not.toBeInTheDocument();
  });

  it('goes back to the whole window on a double-click', () => {
    render(<TimeChart kind="bars" time={time} series={series} format={String} stepSeconds={60} window={[900, 1200]} label="R" />);
    const plot = FakePlot.live()[0]!;
    plot.select = { left: 1000, top: 0, width: 60, height: 50 };
    act(() => plot.fire('setSelect'));
    expect(plot.scaleX).toEqual({ min: 1000, max: 1060 });
    const dblclick = plot.opts.cursor?.bind?.dblclick?.(plot as never, document.body, () => null);
    act(() => {
      dblclick?.(new MouseEvent('dblclick'));
    });
    expect(plot.scaleX).toEqual({ min: 900, max: 1200 });
  });

  it('feeds new data to the same plot, and destroys it on unmount', () => {
    const { rerender, unmount } = render(<TimeChart kind="lines" time={time} series={series} format={String} stepSeconds={60} label="R" />);
    const plot = FakePlot.live()[0]!;
    rerender(<TimeChart kind="lines" time={time} series={[{ ...series[0]!, values: [7, 8, 9] }, series[1]!]} format={String} stepSeconds={60} label="R" />);
    expect(FakePlot.instances).toHaveLength(1);
    expect(plot.data[1]).toEqual([7, 8, 9]);
    unmount();
    expect(plot.destroyed).toBe(true);
  });

  it('follows its container width', () => {
    let notify: ResizeObserverCallback = () => {};
    const observe = vi.fn();
    const disconnect = vi.fn();
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(cb: ResizeObserverCallback) {
          notify = cb;
        }
        observe = observe;
        disconnect = disconnect;
        unobserve() {}
      },
    );
    const { unmount } = render(<TimeChart kind="lines" time={time} series={series} format={String} stepSeconds={60} height={120} label="R" />);
    const plot = FakePlot.live()[0]!;
    expect(observe).toHaveBeenCalled();
    act(() => notify([{ contentRect: { width: 343 } } as ResizeObserverEntry], {} as ResizeObserver));
    expect(plot.width).toBe(343);
    expect(plot.height).toBe(120);
    unmount();
    expect(disconnect).toHaveBeenCalled();
  });

  it('draws again in the colours of a new theme', async () => {
    render(<TimeChart kind="bars" time={time} series={series} format={String} stepSeconds={60} label="R" />);
    const first = FakePlot.live()[0]!;
    const colour = (p: FakePlot) => p.opts.series.find((s) => s.label === 'Two')?.stroke;
    await act(async () => {
      document.documentElement.style.setProperty('--success', '#4ade80');
      document.documentElement.dataset.theme = 'dark';
    });
    expect(first.destroyed).toBe(true);
    const second = FakePlot.live()[0]!;
    expect(colour(second)).toBe('#4ade80');
    // The legend's swatches follow as well.
    expect(document.querySelector('[data-series="a"] .chart-swatch')).toHaveStyle({ background: '#4ade80' });
    await act(async () => {
      document.documentElement.removeAttribute('data-theme');
      document.documentElement.style.removeProperty('--success');
    });
  });
});
