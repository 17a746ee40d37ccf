// The English texts, bundled with the app: the fallback for every language and the source of
// the key types (see i18next.d.ts). A namespace is a feature folder, app, components or common.
// Adding a namespace: add its JSON in every language and list it here.
import access from './access.json';
import account from './account.json';
import admin from './admin.json';
import app from './app.json';
import audit from './audit.json';
import backups from './backups.json';
import common from './common.json';
import components from './components.json';
import containers from './containers.json';
import dashboard from './dashboard.json';
import domains from './domains.json';
import forwardAuth from './forward-auth.json';
import invitations from './invitations.json';
import managed from './managed.json';
import notifications from './notifications.json';
import people from './people.json';
import portal from './portal.json';
import runtime from './runtime.json';
import services from './services.json';
import settings from './settings.json';
import signIn from './sign-in.json';
import system from './system.json';
import transfer from './transfer.json';

export const en = {
  access,
  account,
  admin,
  app,
  audit,
  backups,
  common,
  components,
  containers,
  dashboard,
  domains,
  'forward-auth': forwardAuth,
  invitations,
  managed,
  notifications,
  people,
  portal,
  runtime,
  services,
  settings,
  'sign-in': signIn,
  system,
  transfer,
};
