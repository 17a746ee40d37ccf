// Applies the saved or preferred theme before first paint (kept external for the CSP).
(function () {
  try {
    var t = localStorage.getItem('gatehouse.theme');
    if (t !== 'light' && t !== 'dark') t = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    document.documentElement.dataset.theme = t;
  } catch (e) {
    // Storage or matchMedia unavailable: the app applies a theme once it starts.
  }
})();
