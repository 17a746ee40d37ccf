import type { InputHTMLAttributes, ReactNode } from 'react';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { label: ReactNode; hideLabel?: boolean };

/** A checkbox that looks like a switch; the state is also in the label text for screen readers. */
export function Switch({ label, hideLabel, ...rest }: Props) {
  return (
    <label className="switch">
      <input type="checkbox" role="switch" {...rest} />
      <span className="switch-track" aria-hidden="true" />
      <span className={hideLabel ? 'sr-only' : undefined}>{label}</span>
    </label>
  );
}
