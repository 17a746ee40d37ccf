// The chain: one panel (with a real Traefik when a binary is at hand) and one signed-in page,
// driven through every feature in the order below. Each scenario builds on what the ones before
// it made (the sign-in, the domain, the service "Wiki", the credential set), so the chain runs
// in order in one worker, and a failure skips the rest of it.
//
// Each scenario is a describe named as below, so `--grep` picks them by name; the ones every
// other builds on are tagged @base: `npx playwright test --grep '@base|people|auditLog'`.
import { test } from './support/chain';
import { basicAuth, pinLink, sharedLink } from './scenarios/access';
import { accessLog, accessRules, globalRules, machineTokens } from './scenarios/access-rules';
import { account } from './scenarios/account';
import { people } from './scenarios/people';
import { auditLog } from './scenarios/audit';
import { lockout, signIn } from './scenarios/auth';
import { backups } from './scenarios/backups';
import { createCredentialSet } from './scenarios/credentials';
import { createDomain } from './scenarios/domains';
import { roughEdges } from './scenarios/form-edges';
import { notifications } from './scenarios/notifications';
import { phoneLayout, revokedLink, urlState } from './scenarios/rough-edges';
import { liveViews, traffic } from './scenarios/runtime';
import { createService, deleteService, manageService } from './scenarios/services';
import { changeSettings, configureSso } from './scenarios/settings';
import { errorBadge, pollStatus } from './scenarios/status';
import { system } from './scenarios/system';
import { screenshotTour } from './scenarios/tour';
import { transfer } from './scenarios/transfer';

test.describe.configure({ mode: 'serial' });

signIn();
createDomain();
createService();
traffic();
pollStatus();
manageService();
roughEdges();
sharedLink();
pinLink();
changeSettings();
createCredentialSet();
configureSso();
basicAuth();
accessRules();
machineTokens();
accessLog();
globalRules();
notifications();
backups();
system();
transfer();
phoneLayout();
urlState();
revokedLink();
screenshotTour();
liveViews();
errorBadge();
deleteService();
account();
people();
// Locks sign-in for the rest of the run.
lockout();
// Last: the log of everything the scenarios above changed.
auditLog();
