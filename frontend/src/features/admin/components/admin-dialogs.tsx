/** The roles an API token may carry. */
export const roleChoices = ['admin', 'viewer'] as const;
