const rtf = typeof Intl !== 'undefined' ? new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }) : null;

export function formatDateTime(iso?: string | null): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatRelative(iso?: string | null, now = Date.now()): string {
  if (!iso) return '—';
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return '—';
  const diff = Math.round((t - now) / 1000);
  const abs = Math.abs(diff);
  // Nobody says "0 seconds ago": the last minute is "just now" (or "in a moment").
  if (abs < 45) return diff <= 0 ? 'just now' : 'in a moment';
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86400],
    ['hour', 3600],
    ['minute', 60],
    ['second', 1],
  ];
  for (const [unit, secs] of units) {
    if (abs >= secs || unit === 'second') {
      const v = Math.round(diff / secs);
      return rtf ? rtf.format(v, unit) : `${v} ${unit}s`;
    }
  }
  return '—';
}

/** Compact duration: 90061 → "1d 1h 1m". */
export function formatDuration(totalSeconds: number): string {
  if (!Number.isFinite(totalSeconds) || totalSeconds <= 0) return '0s';
  let s = Math.floor(totalSeconds);
  const d = Math.floor(s / 86400);
  s -= d * 86400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  const parts: string[] = [];
  if (d) parts.push(`${d}d`);
  if (h) parts.push(`${h}h`);
  if (m && d === 0) parts.push(`${m}m`);
  if (s && d === 0 && h === 0) parts.push(`${s}s`);
  return parts.join(' ') || '0s';
}

/** Countdown text to an instant: "expires in 2h 5m" / "expired". */
export function countdown(iso: string | null | undefined, now = Date.now()): { text: string; expired: boolean; seconds: number } {
  if (!iso) return { text: 'never', expired: false, seconds: Infinity };
  const secs = Math.floor((new Date(iso).getTime() - now) / 1000);
  if (secs <= 0) return { text: 'expired', expired: true, seconds: 0 };
  return { text: formatDuration(secs), expired: false, seconds: secs };
}

/** Duration units offered in forms. */
export const durationUnits = [
  { label: 'minutes', seconds: 60 },
  { label: 'hours', seconds: 3600 },
  { label: 'days', seconds: 86400 },
] as const;

/** Picks the largest unit that divides `seconds` exactly. */
export function splitDuration(seconds: number): { amount: number; unit: number } {
  for (const u of [...durationUnits].reverse()) {
    if (seconds > 0 && seconds % u.seconds === 0) return { amount: seconds / u.seconds, unit: u.seconds };
  }
  return { amount: Math.max(1, Math.round(seconds / 60)), unit: 60 };
}

export function formatNumber(n: number, digits = 1): string {
  if (!Number.isFinite(n)) return '—';
  return n.toLocaleString(undefined, { maximumFractionDigits: digits });
}

/** A server message as a sentence of its own: "try again in 3 minutes" → "Try again in 3 minutes." */
export function asSentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  const first = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

/**
 * The build's version for people: a release (semver, as `git describe` prints a tag) shows
 * as v1.2.3; anything else (a commit, a tag plus commits, the -dev default) is a development
 * build named by its short commit when there is one.
 */
export function formatVersion(raw?: string | null): string {
  const v = (raw ?? '').trim();
  if (!v) return '';
  const release = /^v?(\d+\.\d+\.\d+(?:-(?:alpha|beta|rc)(?:\.?\d+)*)?)$/.exec(v);
  if (release) return `v${release[1]}`;
  const dirty = v.endsWith('-dirty');
  const base = dirty ? v.slice(0, -'-dirty'.length) : v;
  const commit = /-g([0-9a-f]{7,40})$/.exec(base)?.[1] ?? (/^[0-9a-f]{7,40}$/.test(base) ? base : '');
  const name = commit ? commit.slice(0, 7) : base;
  return `development build ${name}${dirty ? ' (modified)' : ''}`;
}

/**
 * "a, b and c", or "a, b, c and 3 more" when only the first `max` names are shown:
 * a cut list always says how much was cut.
 */
export function joinNames(names: string[], max = 5, total = names.length): string {
  const shown = names.slice(0, max);
  const rest = total - shown.length;
  if (rest > 0) return shown.length ? `${shown.join(', ')} and ${rest} more` : `${rest} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/** How long ago, as a person says it: "just now", "12 seconds ago", "3 minutes ago", "2 hours ago". */
export function secondsAgo(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 5) return 'just now';
  if (s < 120) return `${s} seconds ago`;
  if (s < 7200) return `${Math.round(s / 60)} minutes ago`;
  return `${Math.round(s / 3600)} hours ago`;
}

/** Bytes for people: 1536 → "1.5 KB", 73400320 → "70 MB". */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return 'unknown';
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${v} bytes` : `${v >= 10 ? Math.round(v) : Math.round(v * 10) / 10} ${units[i]}`;
}
