import { z } from 'zod';

// The panel's CSP forbids eval. zod probes for it (to compile fast parsers) the first time
// a schema is built, and the browser logs the refused probe as an error; turn the probe off.
// Imported first in main.tsx so it runs before any schema module.
z.config({ jitless: true });
