import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

/**
 * Search and filters live in the URL, so a reload, a bookmark or a shared link shows the
 * same list. Setting a value replaces the history entry (typing is not a navigation);
 * an empty value (or the default) removes the parameter.
 */
export function useUrlParams() {
  const [params, setParams] = useSearchParams();
  const set = useCallback(
    (name: string, v: string) =>
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          if (v) next.set(name, v);
          else next.delete(name);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [params, set] as const;
}

/**
 * One URL parameter as state; `fallback` is what an absent parameter means and is never
 * written. With `allowed`, a value outside the list (an old or edited URL) reads as the fallback.
 */
export function useUrlParam<T extends string = string>(name: string, fallback = '' as T, allowed?: readonly T[]) {
  const [params, set] = useUrlParams();
  const raw = params.get(name);
  const value = raw === null || (allowed && !allowed.includes(raw as T)) ? fallback : (raw as T);
  const setValue = useCallback((v: T) => set(name, v === fallback ? '' : v), [set, name, fallback]);
  return [value, setValue] as const;
}

/** A text filter written to the URL once typing pauses, so each key press does not start a new list. */
export function useDebouncedParam(name: string, params: URLSearchParams, set: (name: string, v: string) => void, delay = 400) {
  const current = params.get(name) ?? '';
  const [draft, setDraft] = useState(current);
  useEffect(() => setDraft(current), [current]);
  useEffect(() => {
    if (draft === current) return;
    const t = window.setTimeout(() => set(name, draft.trim()), delay);
    return () => window.clearTimeout(t);
  }, [draft, current, name, set, delay]);
  return [draft, setDraft] as const;
}
