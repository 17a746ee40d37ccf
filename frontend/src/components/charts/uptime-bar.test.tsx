import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UptimeBar, uptimeCells, uptimeShare } from './uptime-bar';

describe('uptimeCells', () => {
  it.each([
    { name: 'one cell per step when they fit', up: [1, 0, null], max: 10, want: [1, 0, null] },
    { name: 'a group is as bad as its worst step', up: [1, 1, 0.5, 1], max: 2, want: [1, 0.5] },
    { name: 'unknown steps do not hide a known one', up: [null, 0, null, null], max: 2, want: [0, null] },
    { name: 'a group of unknown steps stays unknown', up: [null, null, 1, 1], max: 2, want: [null, 1] },
  ])('$name', ({ up, max, want }) => {
    const time = up.map((_, i) => i * 60);
    expect(uptimeCells(time, up, 60, max).map((c) => c.value)).toEqual(want);
  });

  it('covers the window from the first step to the end of the last', () => {
    const cells = uptimeCells([0, 60, 120, 180], [1, 1, 1, 1], 60, 2);
    expect(cells.map((c) => [c.from, c.to])).toEqual([
      [0, 120],
      [120, 240],
    ]);
  });
});

describe('uptimeShare', () => {
  it('averages the known steps only', () => {
    expect(uptimeShare([1, 0, null, 1, 1])).toBe(0.75);
    expect(uptimeShare([null, null])).toBeNull();
  });
});

describe('UptimeBar', () => {
  it('draws up, down, partial and unknown cells and says the share in words', () => {
    render(<UptimeBar time={[0, 60, 120, 180]} up={[1, 0, 0.5, null]} stepSeconds={60} label="Backend health" />);
    const bar = screen.getByRole('img', { name: /^Backend health: 50% up$/ });
    expect([...bar.querySelectorAll('.uptime-cell')].map((c) => c.getAttribute('data-state'))).toEqual(['up', 'down', 'partial', 'unknown']);
    // Colour is not the only signal: each cell has its words, and the key names the colours.
    expect(bar.querySelectorAll('.uptime-cell')[1]).toHaveAttribute('title', expect.stringMatching(/: down$/));
    expect(bar.querySelectorAll('.uptime-cell')[3]).toHaveAttribute('title', expect.stringMatching(/: no health checks$/));
    expect(screen.getByText('Partly down')).toBeInTheDocument();
  });

  it('says when nothing was checked', () => {
    render(<UptimeBar time={[0, 60]} up={[null, null]} stepSeconds={60} label="Backend health" />);
    expect(screen.getByText('No health checks in this period')).toBeInTheDocument();
  });
});
