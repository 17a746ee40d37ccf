// Every string a person reads goes through i18next. Translations live in
// src/locales/<language>/<namespace>.json: one namespace per feature folder, plus `app`,
// `components` and `common` (words many pages share: Save, Cancel, Delete…).
//
// English is bundled with the app and is the fallback; German and French load on demand, so
// a panel in English never downloads them. The language comes from the person's choice
// (kept in localStorage by the switch), else from the browser, else English.
import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { en } from '@/locales/en';

export const languages = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
  { code: 'fr', name: 'Français' },
] as const;

export type Language = (typeof languages)[number]['code'];

export const storageKey = 'gatehouse.language';

export const namespaces = Object.keys(en) as (keyof typeof en)[];

// The non-English bundles, one chunk per file; the glob is resolved at build time.
const bundles = import.meta.glob<{ default: Record<string, unknown> }>(['../locales/de/*.json', '../locales/fr/*.json']);

function isLanguage(code: string): code is Language {
  return languages.some((l) => l.code === code);
}

/** Loads a language's namespaces into i18next (no-op for English and for one loaded before). */
export async function loadLanguage(code: string): Promise<void> {
  if (!isLanguage(code) || code === 'en' || i18n.hasResourceBundle(code, 'common')) return;
  const loads = Object.entries(bundles)
    .filter(([path]) => path.includes(`/locales/${code}/`))
    .map(async ([path, load]) => {
      const ns = path.slice(path.lastIndexOf('/') + 1, -'.json'.length);
      const mod = await load();
      i18n.addResourceBundle(code, ns, mod.default, true, true);
    });
  await Promise.all(loads);
}

/** Switches the language, loading it first; the choice is remembered in this browser. */
export async function changeLanguage(code: Language): Promise<void> {
  await loadLanguage(code);
  await i18n.changeLanguage(code);
  try {
    localStorage.setItem(storageKey, code);
  } catch {
    // Storage refused (private mode): the choice lasts for this page.
  }
}

void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources: { en },
    ns: namespaces,
    defaultNS: 'common',
    fallbackLng: 'en',
    supportedLngs: languages.map((l) => l.code),
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    // The detected language's bundle arrives after init (see startI18n); until then English.
    partialBundledLanguages: true,
    interpolation: { escapeValue: false }, // React escapes.
    returnNull: false,
    // Only a choice made with the switch is kept (changeLanguage): the browser's language is
    // read afresh each time, so a person whose browser changes language sees the change.
    detection: {
      order: ['localStorage', 'navigator'],
      lookupLocalStorage: storageKey,
      caches: [],
    },
    react: { useSuspense: false },
  });

function syncDocument(lng: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}
i18n.on('languageChanged', syncDocument);
syncDocument(i18n.resolvedLanguage ?? 'en');

/** Resolves once the detected language's texts are loaded, so the first render is in it. */
export async function startI18n(): Promise<void> {
  // The detected language, not the resolved one: until its texts are loaded, i18next resolves
  // every language to English, the only one bundled.
  const lng = (i18n.language ?? 'en').split('-')[0] ?? 'en';
  if (!isLanguage(lng) || lng === 'en') return;
  await loadLanguage(lng);
  await i18n.changeLanguage(lng);
}

/** The current language's BCP 47 tag, for Intl formatting. */
export function currentLocale(): string {
  return i18n.resolvedLanguage ?? 'en';
}

export default i18n;
