import i18n from '@/lib/i18n';

// Order matters in both lists: browsers name their relatives in their user agent (Edge and
// Opera say "Chrome", Chrome says "Safari", iPads say "Mac OS X"), so the most specific
// pattern comes first.
const browsers: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\bHeadlessChrome\//, 'Headless Chrome'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrom(e|ium)\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const systems: [RegExp, string][] = [
  [/\bWindows\b/, 'Windows'],
  [/\biPhone|\biPad|\biPod/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMacintosh\b|\bMac OS X\b/, 'macOS'],
  [/\bFreeBSD\b/, 'FreeBSD'],
  [/\bOpenBSD\b/, 'OpenBSD'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

function first(table: [RegExp, string][], ua: string): string | undefined {
  return table.find(([re]) => re.test(ua))?.[1];
}

/**
 * A short readable name for a user agent: "Chrome on Linux", "Safari on iOS", or the
 * program's own name for tools ("curl"). The full string belongs in a tooltip.
 */
export function describeUserAgent(ua: string): string {
  const s = ua.trim();
  if (!s) return i18n.t('device.unknownDevice');
  const browser = first(browsers, s);
  const system = first(systems, s);
  if (browser && system) return i18n.t('device.browserOn', { browser, system });
  if (browser) return browser;
  if (!s.startsWith('Mozilla/')) {
    // Tools and libraries lead with their own product token: "curl/8.5.0", "Go-http-client/1.1".
    const product = /^[^\s/;()]+/.exec(s)?.[0];
    if (product) return product.slice(0, 40);
  }
  return system ? i18n.t('device.someBrowserOn', { system }) : i18n.t('device.unknownBrowser');
}
