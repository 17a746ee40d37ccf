// @vitest-environment node
// The shipped languages are complete, and no component shows a text that skips i18next.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import i18next from 'eslint-plugin-i18next';
import tseslint from 'typescript-eslint';
import { literalStrings } from '../../eslint.config.js';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const locales = path.join(src, 'locales');
const shipped = ['en', 'de', 'fr'];

type Tree = { [key: string]: string | Tree };

/** Flattens a namespace to "a.b.c" keys, plural forms folded to their base key. */
function flatten(tree: Tree, prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else flatten(v, key, out);
  }
  return out;
}

const plural = /_(zero|one|two|few|many|other)$/;
const base = (key: string) => key.replace(plural, '');
const variables = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)/g)].map((m) => m[1]).sort();

function load(lng: string, ns: string): Map<string, string> {
  return flatten(JSON.parse(readFileSync(path.join(locales, lng, `${ns}.json`), 'utf8')) as Tree);
}

const namespaces = readdirSync(path.join(locales, 'en'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length));

describe('locale files', () => {
  it('every language has the same namespaces', () => {
    for (const lng of shipped) {
      const files = readdirSync(path.join(locales, lng)).filter((f) => f.endsWith('.json')).sort();
      expect(files, lng).toEqual(namespaces.map((n) => `${n}.json`).sort());
    }
  });

  it.each(namespaces)('%s: German and French have every English key, with the same variables', (ns) => {
    const en = load('en', ns);
    const enBase = new Map([...en].map(([k, v]) => [base(k), v]));
    for (const lng of shipped.filter((l) => l !== 'en')) {
      const other = load(lng, ns);
      const otherBase = new Map([...other].map(([k, v]) => [base(k), v]));
      const missing = [...enBase.keys()].filter((k) => !otherBase.has(k));
      const extra = [...otherBase.keys()].filter((k) => !enBase.has(k));
      expect(missing, `${lng}/${ns}.json misses`).toEqual([]);
      expect(extra, `${lng}/${ns}.json has keys English has not`).toEqual([]);
      for (const [k, v] of other) {
        expect(v.trim(), `${lng}/${ns}.json ${k} is empty`).not.toBe('');
        const en1 = enBase.get(base(k)) ?? '';
        expect(variables(v).filter((x) => x !== 'count'), `${lng}/${ns}.json ${k} variables`).toEqual(
          variables(en1).filter((x) => x !== 'count'),
        );
      }
    }
  });
});

describe('components', () => {
  it('show no text that is not translated', { timeout: 120_000 }, async () => {
    const eslint = new ESLint({
      cwd: path.resolve(src, '..'),
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.tsx'],
          languageOptions: { parser: tseslint.parser as never },
          plugins: { i18next: i18next as never },
          rules: { 'i18next/no-literal-string': ['error', literalStrings] },
        },
      ],
    });
    const results = await eslint.lintFiles(['src/**/*.tsx']);
    const offending: string[] = [];
    for (const r of results) {
      if (/\.test\.tsx$/.test(r.filePath) || r.filePath.includes(`${path.sep}test${path.sep}`)) continue;
      // Only this rule: a file's disable comments for rules not loaded here are not findings.
      for (const m of r.messages.filter((x) => x.ruleId === 'i18next/no-literal-string' || x.fatal)) {
        offending.push(`${path.relative(src, r.filePath)}:${m.line}: ${m.message}`);
      }
    }
    expect(offending, 'texts outside i18next').toEqual([]);
  });
});
