/** The roles an API token may carry. */
export const roleChoices = [
  { value: 'admin', label: 'Admin', hint: 'everything' },
  { value: 'viewer', label: 'Viewer', hint: 'reads, no changes' },
] as const;
