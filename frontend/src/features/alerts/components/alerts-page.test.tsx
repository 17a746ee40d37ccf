import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { mockFetch, renderRoute, type MockRoute } from '@/test/utils';
import type { AlertEvent, AlertRule } from '@/lib/api-types';
import { AlertsPage } from './alerts-page';

afterEach(() => vi.unstubAllGlobals());

const me = (role: 'admin' | 'viewer') => ({ path: '/api/admin/me', body: { user: { id: 'u1', username: 'admin', role } } });
const services: MockRoute = { path: '/api/services', body: { items: [{ id: 's1', name: 'shop' }, { id: 's2', name: 'wiki' }] } };

const errors: AlertRule = {
  id: 'r1',
  name: 'shop errors',
  serviceId: 's1',
  serviceName: 'shop',
  kind: 'error_ratio',
  threshold: 5,
  forMinutes: 3,
  enabled: true,
  firing: true,
  createdAt: '2026-11-22T09:00:00Z',
  updatedAt: '2026-11-22T09:00:00Z',
};
const quiet: AlertRule = { ...errors, id: 'r2', name: 'silence', serviceId: null, serviceName: '', kind: 'no_traffic', threshold: 0, forMinutes: 10, firing: false };

const firing: AlertEvent = {
  id: 'e2',
  ruleId: 'r1',
  ruleName: 'shop errors',
  serviceId: 's1',
  serviceName: 'shop',
  kind: 'error_ratio',
  threshold: 5,
  forMinutes: 3,
  state: 'firing',
  value: 20,
  firedAt: '2026-11-22T10:05:00Z',
  resolvedAt: null,
  resolvedValue: null,
  resolution: '',
};
const resolved: AlertEvent = { ...firing, id: 'e1', state: 'resolved', value: 12.5, firedAt: '2026-11-22T09:00:00Z', resolvedAt: '2026-11-22T09:10:00Z', resolvedValue: 1, resolution: 'recovered' };

function setup(routes: MockRoute[], role: 'admin' | 'viewer' = 'admin') {
  const mock = mockFetch([me(role), services, ...routes]);
  const user = userEvent.setup();
  renderRoute(
    <>
      <AlertsPage />
      <Toaster />
    </>,
    { path: '/alerts', url: '/alerts' },
  );
  return { ...mock, user };
}

describe('AlertsPage', () => {
  it('lists rules with their state and condition, and the history with firing and resolved episodes', async () => {
    setup([
      { path: '/api/alerts/rules', body: { items: [errors, quiet] } },
      { path: '/api/alerts/events?limit=200', body: { items: [firing, resolved] } },
    ]);
    const rules = await screen.findByRole('table', { name: 'Alert rules' });
    const row = within(rules).getByRole('row', { name: /shop errors/ });
    expect(within(row).getByText('Firing')).toBeInTheDocument();
    expect(within(row).getByText('5xx above 5 % for 3 min')).toBeInTheDocument();
    const other = within(rules).getByRole('row', { name: /silence/ });
    expect(within(other).getByText('All services')).toBeInTheDocument();
    expect(within(other).getByText('OK')).toBeInTheDocument();
    const history = await screen.findByRole('table', { name: 'Alert history' });
    const rows = within(history).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const [first, second] = rows as [HTMLElement, HTMLElement];
    expect(within(first).getByText('Firing')).toBeInTheDocument();
    expect(within(first).getByText('20 %')).toBeInTheDocument();
    expect(within(first).getByText('Still firing')).toBeInTheDocument();
    expect(within(second).getByText('Resolved')).toBeInTheDocument();
    expect(within(second).getByText('Recovered')).toBeInTheDocument();
  });

  it('filters the history by rule and state', async () => {
    const { user, calls } = setup([
      { path: '/api/alerts/rules', body: { items: [errors, quiet] } },
      { path: '/api/alerts/events?limit=200', body: { items: [firing, resolved] } },
      { path: '/api/alerts/events?ruleId=r1&state=resolved&limit=200', body: { items: [resolved] } },
      { path: '/api/alerts/events?ruleId=r1&limit=200', body: { items: [firing, resolved] } },
    ]);
    await screen.findByRole('table', { name: 'Alert history' });
    // The same folding filter panel as the audit log's, which counts the filters set.
    const panel = screen.getByRole('search', { name: 'Alert history filters' });
    expect(panel).toHaveClass('card-body', 'log-filters');
    await user.selectOptions(within(panel).getByLabelText('Rule'), 'shop errors');
    await user.selectOptions(within(panel).getByLabelText('State'), 'Resolved');
    expect(screen.getByRole('button', { name: /Filters/ })).toHaveTextContent('2');
    await waitFor(() => expect(calls.some((c) => c.url === '/api/alerts/events?ruleId=r1&state=resolved&limit=200')).toBe(true));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Alert history' })).getAllByRole('row')).toHaveLength(2));
  });

  it('creates a rule for a service, checking the threshold first', async () => {
    const { user, calls } = setup([
      { path: '/api/alerts/rules', body: { items: [] } },
      { path: '/api/alerts/events?limit=200', body: { items: [] } },
      { method: 'POST', path: '/api/alerts/rules', status: 201, body: errors },
    ]);
    expect(await screen.findByText('No alert rules yet')).toBeInTheDocument();
    expect(await screen.findByText('No alert has fired')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New rule' }));
    const dialog = screen.getByRole('dialog', { name: 'New alert rule' });
    await user.type(within(dialog).getByLabelText('Name'), 'shop errors');
    await within(dialog).findByRole('option', { name: 'shop' });
    await user.selectOptions(within(dialog).getByLabelText('Watches'), 'shop');
    const threshold = within(dialog).getByLabelText('Threshold (% of requests)');
    await user.clear(threshold);
    await user.type(threshold, '150');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A percentage above 0 and at most 100.')).toBeInTheDocument();
    await user.clear(threshold);
    await user.type(threshold, '7.5');
    const minutes = within(dialog).getByLabelText(/For \(minutes\)/);
    await user.clear(minutes);
    await user.type(minutes, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/api/alerts/rules')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'shop errors',
      serviceId: 's1',
      kind: 'error_ratio',
      threshold: 7.5,
      forMinutes: 3,
      enabled: true,
    });
  });

  it('sends a rule without a threshold for all services, and shows server errors on their field', async () => {
    const { user, calls } = setup([
      { path: '/api/alerts/rules', body: { items: [] } },
      { path: '/api/alerts/events?limit=200', body: { items: [] } },
      {
        method: 'POST',
        path: '/api/alerts/rules',
        status: 409,
        body: { error: { code: 'conflict', message: 'an alert rule with this name exists', fields: [{ field: 'name', message: 'an alert rule with this name exists' }] } },
      },
    ]);
    await user.click(await screen.findByRole('button', { name: 'New rule' }));
    const dialog = screen.getByRole('dialog', { name: 'New alert rule' });
    await user.type(within(dialog).getByLabelText('Name'), 'silence');
    await user.selectOptions(within(dialog).getByLabelText('Condition'), 'Traffic stops');
    expect(within(dialog).queryByLabelText(/Threshold/)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('an alert rule with this name exists')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'silence', serviceId: null, kind: 'no_traffic', threshold: 0, forMinutes: 5, enabled: true });
  });

  it('offers a viewer no write controls', async () => {
    setup(
      [
        { path: '/api/alerts/rules', body: { items: [errors] } },
        { path: '/api/alerts/events?limit=200', body: { items: [] } },
      ],
      'viewer',
    );
    await screen.findByRole('table', { name: 'Alert rules' });
    expect(screen.queryByRole('button', { name: 'New rule' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit shop errors' })).not.toBeInTheDocument();
  });
});
