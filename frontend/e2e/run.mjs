// End-to-end suite: starts the real panel binary on a free port with an empty data dir,
// drives Debian's Chromium through playwright-core, and saves screenshots of every page
// at desktop and phone widths into e2e/artifacts/. Any console error fails the run.
// Prints "N passed, N failed" last and exits non-zero on failure.
//
// harness.mjs owns the processes, runner.mjs the steps and their verdicts, page.mjs the
// browser helpers; scenarios/ holds one file per feature area. The scenarios run in the
// order below on one signed-in page, and what one hands to the next is passed by name.
//
// E2E_ONLY=admins,audit (scenario names as in the list below) runs only those, after the
// sign-in, domain and service every scenario builds on.
import { mkdirSync, rmSync } from 'node:fs';
import { freePort, Harness } from './harness.mjs';
import { artifacts, openPage } from './page.mjs';
import { Runner } from './runner.mjs';
import { basicAuth, sharedLink } from './scenarios/access.mjs';
import { account } from './scenarios/account.mjs';
import { auditLog } from './scenarios/audit.mjs';
import { backups } from './scenarios/backups.mjs';
import { system } from './scenarios/system.mjs';
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
import { roughEdges } from './scenarios/form-edges.mjs';
import { changeSettings, configureSso } from './scenarios/settings.mjs';
import { notConnected, phoneLayout, revokedLink, urlState } from './scenarios/rough-edges.mjs';
import { errorBadge, pollStatus } from './scenarios/status.mjs';
import { twoFactor } from './scenarios/twofactor.mjs';
import { transfer } from './scenarios/transfer.mjs';
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
  const only = process.env.E2E_ONLY ? new Set(process.env.E2E_ONLY.split(',').map((s) => s.trim())) : null;
  const want = (name) => !only || only.has(name);
  if (only) t.log(`  - only: ${[...only].join(', ')}`);
  if (want('traffic')) {
    if (traefik) await traffic(t, page, traefik, serviceId);
    else t.log('  - no Traefik binary found: runtime pages are checked in their "not connected" state');
  }
  if (want('pollStatus')) await pollStatus(t, page, traefik);
  if (want('manageService')) await manageService(t, page, serviceId);
  if (want('roughEdges')) await roughEdges(t, page);
  if (want('sharedLink')) await sharedLink(t, page, panel.base, serviceId);
  if (want('changeSettings')) await changeSettings(t, page);
  const credentialSet = want('basicAuth') || want('createCredentialSet') ? await createCredentialSet(t, page) : null;
  if (want('configureSso')) await configureSso(t, page);
  if (want('basicAuth')) await basicAuth(t, page, serviceId, credentialSet);
  if (want('accessRules')) await accessRules(t, page, traefik, serviceId);
  if (want('machineTokens')) await machineTokens(t, page, traefik, serviceId);
  if (want('accessLog')) await accessLog(t, page, traefik);
  if (want('globalRules')) await globalRules(t, page);
  if (want('notifications')) await notifications(t, page);
  if (want('backups')) await backups(t, page);
  if (want('system')) await system(t, page);
  if (want('transfer')) await transfer(t, page);
  if (want('phoneLayout')) await phoneLayout(t, page, serviceId);
  if (want('urlState')) await urlState(t, page);
  if (want('revokedLink')) await revokedLink(t, page, serviceId);
  if (want('notConnected')) await notConnected(t, harness);
  if (want('screenshotTour')) await screenshotTour(t, page, serviceId);
  if (want('managedMode')) await managedMode(t, harness);
  if (want('twoFactor')) await twoFactor(t, harness);
  if (traefik && want('liveViews')) await liveViews(t, page, serviceId);
  if (traefik && want('errorBadge')) await errorBadge(t, page, serviceId);
  if (want('deleteService')) await deleteService(t, page);
  if (want('account')) await account(t, page, browser, panel.base);
  if (want('admins')) await admins(t, page, browser, panel.base);
  if (want('lockout')) await lockout(t, browser, panel.base);
  if (want('panelSso')) await panelSso(t, harness, browser);
  // Last: the log of everything the scenarios above changed.
  if (want('auditLog')) await auditLog(t, page);
} catch (err) {
  t.harnessError(err);
} finally {
  await harness.stop();
}

process.exit(t.summary());
