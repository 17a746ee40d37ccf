import { createContext, useContext, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/lib/api-client';
import { Alert } from './alert';

/**
 * Said once at the top of a form a viewer opens: the fields show the saved values
 * and nothing can be changed from here.
 */
export function ReadOnlyNote({ children }: { children?: ReactNode }) {
  const { t } = useTranslation(['components', 'common']);
  return (
    <Alert tone="info" title={t('readOnly.title')}>
      {children ?? t('readOnly.adminCanChange')}
    </Alert>
  );
}

const ReadOnlyContext = createContext(false);

/**
 * Whether the component sits inside a read-only ReadOnlyFieldset: composite inputs
 * (tag lists) then drop their add and remove buttons instead of showing them disabled.
 */
export function useInsideReadOnly(): boolean {
  return useContext(ReadOnlyContext);
}

/**
 * Disables every control inside (inputs, selects, buttons) when readOnly. Buttons that
 * only make sense for a change (add, remove, save) are left out by their forms instead.
 */
export function ReadOnlyFieldset({
  readOnly,
  className = 'stack',
  style,
  children,
}: {
  readOnly: boolean;
  className?: string;
  style?: CSSProperties;
  children: ReactNode;
}) {
  return (
    <fieldset className={`plain-fieldset ${className}`} style={style} disabled={readOnly}>
      <ReadOnlyContext.Provider value={readOnly}>{children}</ReadOnlyContext.Provider>
    </fieldset>
  );
}

/** Whether a failed read was refused for the role rather than broken (answer 403 forbidden). */
export function isRoleRefusal(e: unknown): boolean {
  return isApiError(e) && e.status === 403 && e.code === 'forbidden';
}

/** In place of a section whose read the server keeps to the admin role. */
export function AdminOnlyNote({ title }: { title: string }) {
  const { t } = useTranslation(['components', 'common']);
  return (
    <Alert tone="info" title={title}>
      {t('readOnly.adminOnly')}
    </Alert>
  );
}
