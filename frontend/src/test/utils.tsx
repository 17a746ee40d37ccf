import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { expect, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';

export type MockRoute = {
  method?: string;
  path: string | RegExp;
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Answers this many calls, then lets later routes answer (a 403 before a retry succeeds). */
  times?: number;
};

/** Replaces fetch with a router over canned responses; unknown calls answer 404. */
export function mockFetch(routes: MockRoute[]) {
  const calls: { method: string; url: string; body?: unknown; headers: Record<string, string>; credentials?: string }[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, url, body, headers: (init?.headers ?? {}) as Record<string, string>, credentials: init?.credentials });
    const r = routes.find(
      (x) => (x.method ?? 'GET') === method && (typeof x.path === 'string' ? url === x.path : x.path.test(url)) && x.times !== 0,
    );
    if (r?.times !== undefined) r.times--;
    if (!r) return new Response(JSON.stringify({ error: { code: 'not_found', message: 'not found' } }), { status: 404 });
    const status = r.status ?? 200;
    return new Response(status === 204 ? null : JSON.stringify(r.body ?? {}), {
      status,
      headers: { 'Content-Type': 'application/json', ...(r.headers ?? {}) },
    });
  });
  vi.stubGlobal('fetch', fn);
  return { fn, calls };
}

export function renderRoute(element: ReactElement, { path = '/', url = '/' }: { path?: string; url?: string } = {}) {
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } });
  const router = createMemoryRouter(
    [
      { path, element },
      { path: '*', element: <div>elsewhere</div> },
    ],
    { initialEntries: [url] },
  );
  const utils = render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...utils, router, client };
}

/** GET /api/admin/me answering a signed-in administrator with the viewer role. */
export const viewerMe: MockRoute = { path: '/api/admin/me', body: { user: { id: 'u2', username: 'eve', role: 'viewer' } } };

/** Names of buttons that would change something; a viewer must see none of them. */
export const writeButtonName = /^(save|delete|create|add|remove|new|insert|discard|revoke|move)\b/i;

/** Checks that no write button is on screen (their names, to read a failure easily). */
export function expectNoWriteButtons() {
  expect(screen.queryAllByRole('button', { name: writeButtonName }).map((b) => b.getAttribute('aria-label') || b.textContent)).toEqual([]);
}

/** Waits for the shared read-only note, then checks that no write button is on screen. */
export async function expectReadOnly() {
  expect(await screen.findByText('You have read-only access')).toBeInTheDocument();
  expectNoWriteButtons();
}
