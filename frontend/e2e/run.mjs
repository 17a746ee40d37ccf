// End-to-end suite: starts the real panel binary on a free port with an empty data dir,
// drives Debian's Chromium through playwright-core, and saves screenshots of every page
// at desktop and phone widths into e2e/artifacts/. Any console error fails the run.
// Prints "N passed, N failed" last and exits non-zero on failure.
//
// harness.mjs owns the processes, runner.mjs the steps and their verdicts, page.mjs the
// browser helpers; scenarios/ holds one file per feature area. The scenarios run in the
// order below on one signed-in page, and what one hands to the next is passed by name.
import { mkdirSync, rmSync } from 'node:fs';
import { freePort, Harness } from './harness.mjs';
import { artifacts, openPage } from './page.mjs';
import { Runner } from './runner.mjs';
import { basicAuth, sharedLink } from './scenarios/access.mjs';
import { account } from './scenarios/account.mjs';
import { auditLog } from './scenarios/audit.mjs';
import { admins } from './scenarios/admins.mjs';
import { accessLog, accessRules, globalRules, machineTokens } from './scenarios/access-rules.mjs';
import { lockout, signIn } from './scenarios/auth.mjs';
import { createCredentialSet } from './scenarios/credentials.mjs';
import { createDomain } from './scenarios/domains.mjs';
import { managedMode } from './scenarios/managed.mjs';
import { notifications } from './scenarios/notifications.mjs';
import { panelSso } from './scenarios/panel-sso.mjs';
import { liveViews, traffic } from './scenarios/runtime.mjs';
import { createService, deleteService, manageService } from './scenarios/services.mjs';
import { changeSettings, configureSso } from './scenarios/settings.mjs';
import { twoFactor } from './scenarios/twofactor.mjs';
import { screenshotTour } from './scenarios/tour.mjs';

rmSync(artifacts, { recursive: true, force: true });
mkdirSync(artifacts, { recursive: true });

let page;
const t = new Runner({ artifacts, failurePage: () => page });
const harness = new Harness({ artifacts });

try {
  // Traefik reads the panel's config and the panel reads Traefik's API: both ports first.
  const port = await freePort();
  const upstream = await harness.startUpstream();
  const traefik = await harness.startTraefik(port);
  // Traefik reaches the panel on its listen address: the admin domain the settings scenario
  // sets does not resolve here, and forwardAuth would follow it otherwise.
  const env = traefik ? { PANEL_PROXY_API_URL: traefik.apiURL, PANEL_INTERNAL_URL: `http://127.0.0.1:${port}` } : {};
  const panel = await harness.startPanel({ port, env });
  await panel.ready();
  t.log(`panel on ${panel.base}, data in ${panel.dir}`);
  const browser = await harness.launchBrowser();
  ({ page } = await openPage(browser, t, { baseURL: panel.base }));

  await signIn(t, page, panel.base);
  await createDomain(t, page);
  const serviceId = await createService(t, page, upstream.port);
  if (traefik) await traffic(t, page, traefik, serviceId);
  else t.log('  - no Traefik binary found: runtime pages are checked in their "not connected" state');
  await manageService(t, page, serviceId);
  await sharedLink(t, page, panel.base, serviceId);
  await changeSettings(t, page);
  const credentialSet = await createCredentialSet(t, page);
  await configureSso(t, page);
  await basicAuth(t, page, serviceId, credentialSet);
  await accessRules(t, page, traefik, serviceId);
  await machineTokens(t, page, traefik, serviceId);
  await accessLog(t, page, traefik);
  await globalRules(t, page);
  await notifications(t, page);
  await screenshotTour(t, page, serviceId);
  await managedMode(t, harness);
  await twoFactor(t, harness);
  if (traefik) await liveViews(t, page, serviceId);
  await deleteService(t, page);
  await account(t, page, browser, panel.base);
  await admins(t, page, browser, panel.base);
  await lockout(t, browser, panel.base);
  await panelSso(t, harness, browser);
  // Last: the log of everything the scenarios above changed.
  await auditLog(t, page);
} catch (err) {
  t.harnessError(err);
} finally {
  await harness.stop();
}

process.exit(t.summary());
