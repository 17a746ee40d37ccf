import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Protection } from '@/lib/api-types';
import { ProtectionIcons } from './protection-icons';

const basic = (exposure: Protection['exposure']): Protection => ({ basicAuth: true, sso: false, sharedLinks: false, tokens: false, emailCode: false, people: false, exposure, streamGuarded: false });

describe('ProtectionIcons', () => {
  it('says in words that a protected service whose rules allow everyone is public', () => {
    render(<ProtectionIcons protection={basic('everyone')} />);
    const badge = screen.getByText('Public: rules allow everyone');
    expect(badge.closest('.badge')).toHaveAttribute('title', expect.stringContaining('Basic auth not asked for'));
  });

  it('says partly public when allow rules with conditions let some requests in', () => {
    render(<ProtectionIcons protection={basic('some')} />);
    expect(screen.getByText('Partly public')).toBeInTheDocument();
    expect(screen.queryByText(/rules allow everyone/)).not.toBeInTheDocument();
  });

  it('shows no public badge when every request needs the protection', () => {
    render(<ProtectionIcons protection={basic('none')} />);
    expect(screen.queryByText(/public/i)).not.toBeInTheDocument();
    expect(screen.getByTitle('Basic auth: on')).toBeInTheDocument();
  });

  it('calls an unprotected service public, and one closed by its rules closed', () => {
    const none = { basicAuth: false, sso: false, sharedLinks: false, tokens: false, emailCode: false, people: false, streamGuarded: false } as const;
    const { rerender } = render(<ProtectionIcons protection={{ ...none, exposure: 'everyone' }} />);
    expect(screen.getByText('public')).toBeInTheDocument();
    rerender(<ProtectionIcons protection={{ ...none, exposure: 'none' }} />);
    expect(screen.getByText('closed by rules')).toBeInTheDocument();
  });
});
