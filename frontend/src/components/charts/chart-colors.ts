import { useEffect, useState } from 'react';

/** The theme's colours a chart draws with, read from global.css's custom properties. */
export type ChartColors = {
  text: string;
  muted: string;
  grid: string;
  surface: string;
  primary: string;
  success: string;
  info: string;
  warning: string;
  danger: string;
  neutral: string;
};

/** A series' colour: one of the theme's tones. */
export type Tone = 'primary' | 'success' | 'info' | 'warning' | 'danger' | 'neutral' | 'muted';

// Used where the stylesheet is not loaded (unit tests): the light theme's values.
const fallback: ChartColors = {
  text: '#171a20',
  muted: '#5b6472',
  grid: '#e2e5ea',
  surface: '#ffffff',
  primary: '#4f46e5',
  success: '#15803d',
  info: '#1d6fd8',
  warning: '#a15c07',
  danger: '#c81e1e',
  neutral: '#cfd4dc',
};

const properties: Record<keyof ChartColors, string> = {
  text: '--text',
  muted: '--text-muted',
  grid: '--border',
  surface: '--surface',
  primary: '--primary',
  success: '--success',
  info: '--info',
  warning: '--warning',
  danger: '--danger',
  neutral: '--border-strong',
};

export function readChartColors(el: Element = document.documentElement): ChartColors {
  const style = getComputedStyle(el);
  const out = { ...fallback };
  for (const [k, prop] of Object.entries(properties) as [keyof ChartColors, string][]) {
    const v = style.getPropertyValue(prop).trim();
    if (v) out[k] = v;
  }
  return out;
}

export function toneColor(c: ChartColors, tone: Tone): string {
  return tone === 'muted' ? c.muted : c[tone];
}

/** A colour with transparency, for fills under lines: works for #rgb, #rrggbb and rgb(). */
export function withAlpha(color: string, alpha: number): string {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((ch) => ch + ch).join('') : hex;
    const n = parseInt(full, 16);
    return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
  }
  return `color-mix(in srgb, ${color} ${Math.round(alpha * 100)}%, transparent)`;
}

/**
 * The chart colours of the theme in effect, read again when the theme changes (lib/theme.ts
 * sets data-theme on the root element, also when the system's preference changes).
 */
export function useChartColors(): ChartColors {
  const [colors, setColors] = useState(readChartColors);
  useEffect(() => {
    const root = document.documentElement;
    const observer = new MutationObserver(() =>
      setColors((prev) => {
        const next = readChartColors();
        return (Object.keys(next) as (keyof ChartColors)[]).every((k) => next[k] === prev[k]) ? prev : next;
      }),
    );
    observer.observe(root, { attributes: true, attributeFilter: ['data-theme', 'style', 'class'] });
    return () => observer.disconnect();
  }, []);
  return colors;
}
