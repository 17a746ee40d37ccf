import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import { Icon, type IconName } from './icons';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';
type Common = { variant?: Variant; size?: 'sm' | 'md'; icon?: IconName; iconOnly?: boolean };

function cls({ variant = 'secondary', size = 'md', iconOnly }: Common, extra?: string) {
  return [
    'btn',
    variant !== 'secondary' && `btn-${variant}`,
    size === 'sm' && 'btn-sm',
    iconOnly && 'btn-icon',
    extra,
  ]
    .filter(Boolean)
    .join(' ');
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & Common & { loading?: boolean; children?: ReactNode };

/** Button that disables itself and shows a spinner while `loading`. */
export function Button({ variant, size, icon, iconOnly, loading, disabled, className, children, type = 'button', ...rest }: ButtonProps) {
  return (
    <button
      type={type}
      className={cls({ variant, size, iconOnly }, className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? <span className="spinner" aria-hidden="true" /> : icon ? <Icon name={icon} size={size === 'sm' ? 14 : 16} /> : null}
      {children}
    </button>
  );
}

type ButtonLinkProps = LinkProps & Common;

export function ButtonLink({ variant, size, icon, iconOnly, className, children, ...rest }: ButtonLinkProps) {
  return (
    <Link className={cls({ variant, size, iconOnly }, className)} {...rest}>
      {icon ? <Icon name={icon} size={size === 'sm' ? 14 : 16} /> : null}
      {children}
    </Link>
  );
}
