import { useCallback, useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from './modal';

/**
 * Guards a dirty form: the browser's prompt on reload/close, and a dialog on in-app
 * navigation. `allowNext()` lets the next navigation through (after a successful save).
 */
export function useUnsavedGuard(dirty: boolean) {
  const bypass = useRef(false);
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (bypass.current) {
      bypass.current = false;
      return false;
    }
    return dirty && currentLocation.pathname !== nextLocation.pathname;
  });

  const allowNext = useCallback(() => {
    bypass.current = true;
  }, []);

  const dialog = (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      title="Discard unsaved changes?"
      message="You have changes on this page that are not saved yet. Leaving will discard them."
      confirmLabel="Discard changes"
      danger
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    />
  );
  return { allowNext, dialog };
}
