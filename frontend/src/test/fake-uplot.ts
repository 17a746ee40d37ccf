// A stand-in for uPlot in unit tests: jsdom has no canvas. It keeps what the chart layer
// gave it (options, data, size, scale) so tests can check them and drive the hooks.
// Use with `vi.mock('uplot', () => import('@/test/fake-uplot'))`.
import type uPlot from 'uplot';

export class FakePlot {
  static instances: FakePlot[] = [];
  static paths = { bars: () => () => null };

  opts: uPlot.Options;
  data: uPlot.AlignedData;
  width: number;
  height: number;
  destroyed = false;
  scaleX: { min: number; max: number } | null = null;
  cursor: { idx: number | null } = { idx: null };
  select = { left: 0, top: 0, width: 0, height: 0 };
  root: HTMLElement;

  constructor(opts: uPlot.Options, data: uPlot.AlignedData, el: HTMLElement) {
    this.opts = opts;
    this.data = data;
    this.width = opts.width;
    this.height = opts.height;
    this.root = document.createElement('div');
    this.root.className = 'uplot';
    el.appendChild(this.root);
    FakePlot.instances.push(this);
  }

  setData(data: uPlot.AlignedData) {
    this.data = data;
  }
  setScale(key: string, r: { min: number; max: number }) {
    if (key === 'x') this.scaleX = r;
  }
  setSize(s: { width: number; height: number }) {
    this.width = s.width;
    this.height = s.height;
  }
  setSelect(s: { left: number; top: number; width: number; height: number }) {
    this.select = s;
  }
  /** Pixels are seconds here, so a drag from 100 to 400 selects 100..400. */
  posToVal(px: number) {
    return px;
  }
  destroy() {
    this.destroyed = true;
    this.root.remove();
  }

  /** Runs the chart's hook as uPlot would. */
  fire(name: 'setCursor' | 'setSelect') {
    for (const h of this.opts.hooks?.[name] ?? []) (h as (u: unknown) => void)(this);
  }

  static live(): FakePlot[] {
    return FakePlot.instances.filter((p) => !p.destroyed);
  }
}

export default FakePlot;
