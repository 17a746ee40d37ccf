import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AccessRule, ServiceAccess } from '@/lib/api-types';
import { expectReadOnly, mockFetch, renderRoute, viewerMe, type MockRoute } from '@/test/utils';
import { GlobalRulesPage } from './global-rules-page';
import { ServiceAccessPage } from './service-access-page';

afterEach(() => vi.unstubAllGlobals());

const rules: AccessRule[] = [
  { action: 'allow', note: 'LAN', sources: ['private'] },
  { action: 'deny', note: 'No admin', paths: [{ type: 'prefix', value: '/admin' }] },
];

const access = (over: Partial<ServiceAccess> = {}): ServiceAccess => ({
  serviceId: 's1',
  defaultAction: '',
  effectiveDefault: 'authenticate',
  rules,
  protections: ['sso'],
  exposure: 'some',
  geoip: false,
  warnings: [],
  updatedAt: '2026-01-01T00:00:00Z',
  ...over,
});

const base = (over: Partial<ServiceAccess> = {}): MockRoute[] => [
  { path: '/api/services/s1/access', body: access(over) },
  { path: /^\/api\/services\/s1\/access-log\?/, body: { items: [], capacity: 1000 } },
  { path: '/api/services', body: { items: [] } },
];

function render() {
  return renderRoute(<ServiceAccessPage />, { path: '/services/:id/access', url: '/services/s1/access' });
}

const notes = () => screen.getAllByRole('listitem', { name: /^Rule \d+$/ }).map((li) => li.querySelector('.rule-note')?.textContent);

describe('ServiceAccessPage rule editor', () => {
  it('adds, reorders and removes rules, keeps focus on the moved rule, and saves the order', async () => {
    const { calls } = mockFetch([...base(), { method: 'PUT', path: '/api/services/s1/access', body: access() }]);
    const user = userEvent.setup();
    render();
    expect(await screen.findByText('Rules (2)')).toBeInTheDocument();
    expect(notes()).toEqual(['LAN', 'No admin']);

    await user.click(screen.getByRole('button', { name: 'Move rule 2 up' }));
    expect(notes()).toEqual(['No admin', 'LAN']);
    // The moved rule is now first: "up" is disabled there, so focus lands on its "down" button.
    await waitFor(() => expect(document.activeElement).toHaveAccessibleName('Move rule 1 down'));
    expect(screen.getByText('Rule 2 moved up to position 1')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    expect(screen.getByText('Rules (3)')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Rule 3 action'), 'allow');
    await user.type(screen.getByLabelText('Rule 3 note'), 'Health checks');
    await user.click(within(screen.getByRole('listitem', { name: 'Rule 3' })).getByRole('button', { name: 'Add path' }));
    await user.type(screen.getByLabelText('Rule 3 path 1'), '/health');
    await user.selectOptions(screen.getByLabelText('Rule 3 path 1 type'), 'exact');

    await user.click(screen.getByRole('button', { name: 'Remove rule 2' }));
    expect(notes()).toEqual(['No admin', 'Health checks']);

    await user.click(screen.getByRole('button', { name: 'Save rules' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toEqual({
      defaultAction: '',
      rules: [
        { action: 'deny', note: 'No admin', paths: [{ type: 'prefix', value: '/admin' }] },
        { action: 'allow', note: 'Health checks', paths: [{ type: 'exact', value: '/health' }] },
      ],
    });
  }, 30_000);

  it('starts a new rule as one that cannot open anything, and flags an allow without conditions', async () => {
    mockFetch(base());
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('button', { name: 'Add rule' }));
    const action = screen.getByLabelText('Rule 3 action');
    expect(action).toHaveValue('authenticate');
    const rule = screen.getByRole('listitem', { name: 'Rule 3' });
    expect(within(rule).queryByText(/Allows every request without signing in/)).not.toBeInTheDocument();
    await user.selectOptions(action, 'allow');
    expect(within(rule).getByText(/Allows every request without signing in: anyone on the internet gets through/)).toBeInTheDocument();
    await user.click(within(rule).getByRole('button', { name: 'Add path' }));
    await user.type(screen.getByLabelText('Rule 3 path 1'), '/health');
    expect(within(rule).queryByText(/Allows every request without signing in/)).not.toBeInTheDocument();
  }, 30_000);

  it('asks, naming the service, before saving rules the server says make it public', async () => {
    const refused: MockRoute = {
      method: 'PUT',
      path: '/api/services/s1/access',
      status: 422,
      body: {
        error: {
          code: 'validation_failed',
          message: 'some fields are invalid',
          fields: [{ field: 'confirmPublic', message: 'these rules let everyone on the internet open the service without signing in' }],
        },
      },
    };
    const routes: MockRoute[] = [
      refused,
      ...base().filter((r) => r.path !== '/api/services'),
      { path: '/api/services', body: { items: [{ id: 's1', name: 'Files' }] } },
    ];
    const { calls } = mockFetch(routes);
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('button', { name: 'Add rule' }));
    await user.selectOptions(screen.getByLabelText('Rule 3 action'), 'allow');
    await user.click(screen.getByRole('button', { name: 'Save rules' }));

    const dialog = await screen.findByRole('dialog', { name: 'Make it public?' });
    expect(within(dialog).getByText('Everyone on the internet can open Files without signing in.')).toBeInTheDocument();
    const puts = () => calls.filter((c) => c.method === 'PUT');
    expect(puts()).toHaveLength(1);
    expect(puts()[0]!.body).not.toHaveProperty('confirmPublic');

    // Cancelling sends nothing more and keeps the draft.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Make it public?' })).not.toBeInTheDocument());
    expect(puts()).toHaveLength(1);
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save rules' }));
    const again = await screen.findByRole('dialog', { name: 'Make it public?' });
    routes[0] = { method: 'PUT', path: '/api/services/s1/access', body: access({ exposure: 'everyone' }) };
    await user.click(within(again).getByRole('button', { name: 'Make it public' }));
    await waitFor(() => expect(puts()).toHaveLength(3));
    expect(puts()[2]!.body).toMatchObject({ confirmPublic: true, rules: expect.arrayContaining([{ action: 'allow' }]) });
  }, 30_000);

  it('says when the saved rules let everyone in', async () => {
    mockFetch(base({ exposure: 'everyone', protections: ['basicAuth'] }));
    render();
    expect(await screen.findByText('Public: rules allow everyone')).toBeInTheDocument();
  });

  it('puts server errors on nested fields, opening the rules that hold them', async () => {
    mockFetch([
      ...base(),
      {
        method: 'PUT',
        path: '/api/services/s1/access',
        status: 422,
        body: {
          error: {
            code: 'validation_failed',
            message: 'some fields are invalid',
            fields: [
              { field: 'rules[1].paths[0].value', message: 'must be a clean path: no //, . or .. segments' },
              { field: 'rules[0].sources[0]', message: 'must be an IP address, a CIDR such as 192.168.1.0/24, "private" or "loopback"' },
            ],
          },
        },
      },
    ]);
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('radio', { name: 'Deny' }));
    expect(screen.getByTestId('effective-default')).toHaveTextContent('Effective: Deny');
    // Collapsed rules show no inputs until they hold an error.
    expect(screen.queryByLabelText('Rule 2 path 1')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save rules' }));

    const path = await screen.findByLabelText('Rule 2 path 1');
    expect(path).toHaveAttribute('aria-invalid', 'true');
    expect(path).toHaveValue('/admin');
    expect(screen.getByText('must be a clean path: no //, . or .. segments')).toBeInTheDocument();
    const sources = screen.getByLabelText('Rule 1 client addresses');
    expect(sources).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(/must be an IP address, a CIDR/)).toBeInTheDocument();
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-invalid')).toBe('true'));
  });

  it('inserts a preset at the top, each rule keeping its note', async () => {
    mockFetch([
      ...base(),
      {
        path: '/api/access/presets',
        body: {
          items: [
            {
              id: 'nextcloud',
              name: 'Nextcloud / WebDAV / CalDAV',
              description: 'Lets sync clients through with their own app passwords.',
              docs: ['https://docs.nextcloud.com/server/latest/admin_manual/'],
              rules: [
                { action: 'allow', note: 'DAV clients', paths: [{ type: 'prefix', value: '/remote.php/dav' }], methods: ['PROPFIND', 'GET'] },
                { action: 'allow', note: 'Well-known', paths: [{ type: 'prefix', value: '/.well-known/caldav' }] },
              ],
            },
          ],
        },
      },
    ]);
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('button', { name: 'Insert preset' }));
    const dialog = await screen.findByRole('dialog', { name: 'Insert a preset' });
    expect(await within(dialog).findByText('Lets sync clients through with their own app passwords.')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: /docs\.nextcloud\.com/ })).toHaveAttribute('href', 'https://docs.nextcloud.com/server/latest/admin_manual/');
    await user.click(within(dialog).getByRole('button', { name: 'Insert Nextcloud / WebDAV / CalDAV' }));
    expect(screen.queryByRole('dialog', { name: 'Insert a preset' })).not.toBeInTheDocument();
    expect(screen.getByText('Rules (4)')).toBeInTheDocument();
    expect(notes()).toEqual(['DAV clients', 'Well-known', 'LAN', 'No admin']);
    expect(screen.getByRole('button', { name: 'Save rules' })).toBeEnabled();
  });

  it('asks before leaving with unsaved changes', async () => {
    mockFetch(base());
    const user = userEvent.setup();
    const { router } = render();
    await user.click(await screen.findByRole('button', { name: 'Remove rule 1' }));
    await act(() => router.navigate('/services'));
    const dialog = await screen.findByRole('dialog', { name: 'Discard unsaved changes?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(router.state.location.pathname).toBe('/services/s1/access');
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(notes()).toEqual(['LAN', 'No admin']);
    await act(() => router.navigate('/services'));
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
  });

  it('explains the country database instead of offering countries without one', async () => {
    mockFetch(base());
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('button', { name: /^LAN/ }));
    expect(screen.getByText(/Country conditions need a country database/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Rule 1 countries')).not.toBeInTheDocument();
    expect(screen.getByText(/never as a security boundary/)).toBeInTheDocument();
  });
});

describe('ServiceAccessPage rule tester', () => {
  it('posts the rules in the editor as the draft and shows the decision, path and steps', async () => {
    const { calls } = mockFetch([
      ...base(),
      {
        method: 'POST',
        path: '/api/services/s1/access/test',
        body: {
          decision: 'deny',
          scope: 'service',
          index: 0,
          reason: 'service rule 1 (deny) matched: path prefix /admin',
          path: '/admin/users',
          ambiguous: true,
          steps: [
            { scope: 'global', index: 0, action: 'allow', note: 'ACME', matched: false, reason: 'the path does not match' },
            { scope: 'service', index: 0, action: 'deny', note: 'No admin', matched: true, reason: 'path prefix /admin' },
          ],
          protections: ['sso'],
          warnings: ['the host is not one of the service\'s hostnames'],
        },
      },
    ]);
    const user = userEvent.setup();
    render();
    // An unsaved edit: the tester must use it.
    await user.click(await screen.findByRole('button', { name: 'Move rule 2 up' }));
    const tester = screen.getByRole('form', { name: 'Rule tester' });
    await user.selectOptions(within(tester).getByLabelText('Method'), 'PROPFIND');
    const url = within(tester).getByLabelText('URL');
    await user.clear(url);
    await user.type(url, 'https://cloud.example.com/public/../admin/users');
    await user.type(within(tester).getByLabelText('Client address'), '203.0.113.7');
    await user.click(within(tester).getByRole('button', { name: 'Add header' }));
    await user.type(within(tester).getByLabelText('Test header 1 name'), 'User-Agent');
    await user.type(within(tester).getByLabelText('Test header 1 value'), 'curl');
    await user.click(within(tester).getByRole('button', { name: 'Test request' }));

    const result = await screen.findByRole('region', { name: 'Test result' });
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({
      method: 'PROPFIND',
      url: 'https://cloud.example.com/public/../admin/users',
      clientAddress: '203.0.113.7',
      headers: { 'User-Agent': 'curl' },
      draft: {
        defaultAction: '',
        rules: [
          { action: 'deny', note: 'No admin', paths: [{ type: 'prefix', value: '/admin' }] },
          { action: 'allow', note: 'LAN', sources: ['private'] },
        ],
      },
    });
    expect(within(result).getByTestId('decision')).toHaveTextContent('Denied');
    expect(within(result).getByText('service rule 1 (deny) matched: path prefix /admin')).toBeInTheDocument();
    expect(within(result).getByText('/admin/users')).toBeInTheDocument();
    expect(within(result).getByText('ambiguous')).toBeInTheDocument();
    expect(within(result).getByText("the host is not one of the service's hostnames")).toBeInTheDocument();
    const steps = within(within(result).getByRole('list', { name: 'Steps' })).getAllByRole('listitem');
    expect(steps).toHaveLength(2);
    expect(steps[0]).toHaveTextContent('Global rule 1');
    expect(steps[0]).toHaveTextContent('did not match');
    expect(steps[0]).toHaveTextContent('the path does not match');
    expect(steps[1]).toHaveTextContent('Rule 1');
    expect(steps[1]).toHaveTextContent('matched');
  }, 30_000);

  it('shows draft errors from the tester on the editor fields', async () => {
    mockFetch([
      ...base(),
      {
        method: 'POST',
        path: '/api/services/s1/access/test',
        status: 422,
        body: { error: { code: 'validation_failed', message: 'invalid', fields: [{ field: 'draft.rules[1].paths[0].value', message: 'must start with /' }] } },
      },
    ]);
    const user = userEvent.setup();
    render();
    const tester = await screen.findByRole('form', { name: 'Rule tester' });
    await user.click(within(tester).getByRole('button', { name: 'Test request' }));
    expect(await within(tester).findByText('The rules in the editor have problems')).toBeInTheDocument();
    expect(await screen.findByLabelText('Rule 2 path 1')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('must start with /')).toBeInTheDocument();
  });
});

describe('access rules as a viewer', () => {
  it('shows the service rules read-only and no tester (the server refuses a viewer its POST)', async () => {
    const user = userEvent.setup();
    mockFetch([viewerMe, ...base()]);
    render();
    expect(await screen.findByText('Rules (2)')).toBeInTheDocument();
    await expectReadOnly();
    expect(screen.queryByRole('button', { name: /^Test/ })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Rule 1 action')).toBeDisabled();
    expect(screen.getByRole('radio', { name: 'Automatic' })).toBeDisabled();
    // A rule still opens to be read.
    await user.click(within(screen.getByRole('listitem', { name: 'Rule 2' })).getByRole('button', { name: /Show/ }));
    expect(screen.getByLabelText('Rule 2 path 1')).toHaveValue('/admin');
    expect(screen.getByLabelText('Rule 2 path 1')).toBeDisabled();
    await expectReadOnly();
  });

  it('shows the global rules read-only', async () => {
    mockFetch([viewerMe, { path: '/api/access/rules', body: { rules, geoip: false } }]);
    renderRoute(<GlobalRulesPage />);
    expect(await screen.findByText('Global rules (2)')).toBeInTheDocument();
    await expectReadOnly();
  });
});
