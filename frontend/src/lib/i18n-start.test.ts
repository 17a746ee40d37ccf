import i18n, { changeLanguage, startI18n, storageKey } from '@/lib/i18n';

afterEach(async () => {
  localStorage.removeItem(storageKey);
  await i18n.changeLanguage('en');
});

describe('startI18n', () => {
  it('loads the detected language before the first render, though i18next resolves it to English until then', async () => {
    await i18n.changeLanguage('de-DE'); // as the detector leaves it: German asked for, not loaded
    await startI18n();
    expect(i18n.resolvedLanguage).toBe('de');
    expect(i18n.t('actions.save')).toBe('Speichern');
    expect(document.documentElement.lang).toBe('de');
  });

  it('remembers only a language chosen with the switch', async () => {
    await changeLanguage('fr');
    expect(localStorage.getItem(storageKey)).toBe('fr');
    expect(i18n.t('actions.save')).toBe('Enregistrer');
  });
});
