/**
 * How every form validates: first on submit, then on each change of a field already shown
 * invalid. Never on blur: an error line appearing on blur shifts the layout under the
 * pointer, so the click that caused the blur (e.g. on "Add rule") would land on nothing.
 */
export const formMode = { mode: 'onSubmit', reValidateMode: 'onChange' } as const;
