import type { ComponentType } from 'react';
import { BasicAuthSection } from './basic-auth-section';
import { EmailCodeSection } from './email-code-section';
import { PeopleSection } from './people-section';
import { SharedLinksSection } from './shared-links-section';
import { SsoSection } from './sso-section';
import { TokensSection } from './tokens-section';

/** What every section of the protection form gets; its values come from the form context. */
export type SectionProps = { serviceId: string; canWrite: boolean };

export type ProtectionSection = {
  /** The key of the section's values in ProtectionValues (and of its object on the wire). */
  key: string;
  Component: ComponentType<SectionProps>;
  /** Takes the whole row (a section with a list beside its settings). */
  wide?: boolean;
};

/**
 * The protections of the Security tab, in the order shown. A new protection is one entry here,
 * its component, and its schema in protection-schema.ts: the form, its one save and its unsaved-changes bar
 * cover it with nothing else to change.
 */
export const protectionSections: ProtectionSection[] = [
  { key: 'sharedLinks', Component: SharedLinksSection, wide: true },
  { key: 'people', Component: PeopleSection },
  { key: 'sso', Component: SsoSection },
  { key: 'basicAuth', Component: BasicAuthSection },
  { key: 'tokens', Component: TokensSection },
  { key: 'emailCode', Component: EmailCodeSection },
];
