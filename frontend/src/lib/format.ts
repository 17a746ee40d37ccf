// Dates, numbers and durations in the person's language (lib/i18n.ts): Intl formats them for
// the current locale, and the words around them come from the `common` namespace.
import i18n, { currentLocale } from '@/lib/i18n';

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

function relativeFormat(): Intl.RelativeTimeFormat {
  const locale = currentLocale();
  let f = relativeFormats.get(locale);
  if (!f) {
    f = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    relativeFormats.set(locale, f);
  }
  return f;
}

export function formatDateTime(iso?: string | null): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return d.toLocaleString(currentLocale(), { dateStyle: 'medium', timeStyle: 'short' });
}

/** A time of day, with seconds: "14:03:27" or "2:03:27 PM" as the locale writes it. */
export function formatTime(iso: string | Date): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(d.getTime())) return '—';
  return d.toLocaleTimeString(currentLocale(), { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function formatRelative(iso?: string | null, now = Date.now()): string {
  if (!iso) return '—';
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return '—';
  const diff = Math.round((t - now) / 1000);
  const abs = Math.abs(diff);
  // Nobody says "0 seconds ago": the last minute is "just now" (or "in a moment").
  if (abs < 45) return diff <= 0 ? i18n.t('ago.justNow') : i18n.t('ago.inAMoment');
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86400],
    ['hour', 3600],
    ['minute', 60],
    ['second', 1],
  ];
  for (const [unit, secs] of units) {
    if (abs >= secs || unit === 'second') {
      const v = Math.round(diff / secs);
      return relativeFormat().format(v, unit);
    }
  }
  return '—';
}

/** Compact duration: 90061 → "1d 1h 1m" (units as the language abbreviates them). */
export function formatDuration(totalSeconds: number): string {
  const t = i18n.t;
  if (!Number.isFinite(totalSeconds) || totalSeconds <= 0) return t('duration.seconds', { count: 0 });
  let s = Math.floor(totalSeconds);
  const d = Math.floor(s / 86400);
  s -= d * 86400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  const parts: string[] = [];
  if (d) parts.push(t('duration.days', { count: d }));
  if (h) parts.push(t('duration.hours', { count: h }));
  if (m && d === 0) parts.push(t('duration.minutes', { count: m }));
  if (s && d === 0 && h === 0) parts.push(t('duration.seconds', { count: s }));
  return parts.join(' ') || t('duration.seconds', { count: 0 });
}

/** Countdown text to an instant: "expires in 2h 5m" / "expired". */
export function countdown(iso: string | null | undefined, now = Date.now()): { text: string; expired: boolean; seconds: number } {
  if (!iso) return { text: i18n.t('countdown.never'), expired: false, seconds: Infinity };
  const secs = Math.floor((new Date(iso).getTime() - now) / 1000);
  if (secs <= 0) return { text: i18n.t('countdown.expired'), expired: true, seconds: 0 };
  return { text: formatDuration(secs), expired: false, seconds: secs };
}

/** Duration units offered in forms; `label` is a key of the common namespace. */
export const durationUnits = [
  { label: 'units.minutes', seconds: 60 },
  { label: 'units.hours', seconds: 3600 },
  { label: 'units.days', seconds: 86400 },
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
  return n.toLocaleString(currentLocale(), { maximumFractionDigits: digits });
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
  return dirty ? i18n.t('version.developmentModified', { name }) : i18n.t('version.development', { name });
}

/**
 * "a, b and c", or "a, b, c and 3 more" when only the first `max` names are shown:
 * a cut list always says how much was cut.
 */
export function joinNames(names: string[], max = 5, total = names.length): string {
  const shown = names.slice(0, max);
  const rest = total - shown.length;
  // British English lists without the serial comma: "a, b and c".
  const locale = currentLocale() === 'en' ? 'en-GB' : currentLocale();
  const list = new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' });
  if (rest > 0) {
    const more = i18n.t('list.more', { count: rest });
    return shown.length ? list.format([...shown, more]) : more;
  }
  return list.format(shown);
}

/** How long ago, as a person says it: "just now", "12 seconds ago", "3 minutes ago", "2 hours ago". */
export function secondsAgo(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 5) return i18n.t('ago.justNow');
  if (s < 120) return i18n.t('ago.seconds', { count: s });
  if (s < 7200) return i18n.t('ago.minutes', { count: Math.round(s / 60) });
  return i18n.t('ago.hours', { count: Math.round(s / 3600) });
}

/** Bytes for people: 1536 → "1.5 KB", 73400320 → "70 MB". */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return i18n.t('bytes.unknown');
  const units = ['KB', 'MB', 'GB', 'TB'];
  if (n < 1024) return i18n.t('bytes.bytes', { count: n });
  let v = n;
  let i = -1;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${formatNumber(v >= 10 ? Math.round(v) : Math.round(v * 10) / 10)} ${units[i]}`;
}

/** An instant given in unix seconds, in the browser's time zone: "26 Nov 2026, 14:05". */
export function formatInstant(seconds: number): string {
  const d = new Date(seconds * 1000);
  if (Number.isNaN(d.getTime())) return '—';
  return d.toLocaleString(currentLocale(), { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * A time axis label (unix seconds) in the browser's time zone: the time of day while ticks
 * are less than a day apart (the date at midnight), the day and month otherwise.
 */
export function formatAxisTime(seconds: number, tickSeconds: number): string {
  const d = new Date(seconds * 1000);
  if (Number.isNaN(d.getTime())) return '';
  const midnight = d.getHours() === 0 && d.getMinutes() === 0;
  if (tickSeconds >= 86400 || midnight) return d.toLocaleDateString(currentLocale(), { day: 'numeric', month: 'short' });
  return d.toLocaleTimeString(currentLocale(), { hour: '2-digit', minute: '2-digit' });
}

/** Milliseconds with their unit as the language writes it: "12 ms", "1.234 ms". */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  return new Intl.NumberFormat(currentLocale(), { style: 'unit', unit: 'millisecond', unitDisplay: 'short', maximumFractionDigits: ms < 10 ? 1 : 0 }).format(ms);
}

/** A share (0..1) as a percentage: 0.0123 → "1.2 %" (as the language writes it). */
export function formatPercent(ratio: number, digits = 1): string {
  if (!Number.isFinite(ratio)) return '—';
  return new Intl.NumberFormat(currentLocale(), { style: 'percent', maximumFractionDigits: digits }).format(ratio);
}

/** Large counts kept short: 1234 → "1.2K" (as the language abbreviates them). */
export function formatCompact(n: number): string {
  if (!Number.isFinite(n)) return '—';
  return new Intl.NumberFormat(currentLocale(), { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}
